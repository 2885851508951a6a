// A fake Flutterwave, the static virtual account side of it (the Bills side is test/helpers/fake-flutterwave.ts),
// over real HTTP on 127.0.0.1. It answers what src/services/funding/flutterwave-funding.ts asks, as
// Flutterwave documents it (docs/funding.md "Flutterwave"):
//   POST /v3/virtual-account-numbers   GET /v3/transactions/{id}/verify   GET /v3/transactions?from=&to=&page=
// with Authorization: Bearer <secret key>; anything else answers the documented 401. Every answer is a
// recorded documented answer (test/fixtures/funding/flutterwave/, one file per answer with its source) with
// this request's values filled in: amounts in naira with decimals (kobo / 100, whose JSON text is the exact
// decimal), 10 rows a page as the reference's example (158 rows, 16 pages). Each POST makes a new account:
// nothing Flutterwave documents says a repeat finds the first one. pay_in records a transfer into a static
// account as the API will then report it (a new transaction id; the account's tx_ref, which every transfer
// into that account repeats) and returns the charge.completed webhook Flutterwave would send, with the
// secret hash in verif-hash. While `down`, every call answers the documented 503.
import type { FakeCallback, FakeFundingProvider, FakeTransfer } from './fake-funding.js';
import { funding_fixture } from './funding-fixtures.js';
import { FakeProviderServer, type Answer, type RecordedCall } from './fake-provider-server.js';
import { kobo_to_naira } from '../../src/lib/money.js';

export const flutterwave_funding_secret_key = 'FLWSECK_TEST-billvend-fake-funding-X';
export const flutterwave_funding_public_key = 'FLWPUBK_TEST-billvend-fake-funding-X';
export const flutterwave_secret_hash = 'billvend-fake-verif-hash-0001';
/** Rows a page of GET /v3/transactions. */
export const flutterwave_page_size = 10;

interface Account {
  account_number: string;
  order_ref: string;
  flw_ref: string;
  tx_ref: string;
  email: string;
  narration: string;
  created_at: string;
}

interface Transfer {
  id: number;
  account: Account;
  flw_ref: string;
  amount_kobo: number;
  fee_kobo: number;
  status: string;
  created_at: string;
}

export interface FlutterwaveRecordChange {
  amount_kobo?: number;
  fee_kobo?: number;
  status?: 'successful' | 'failed' | 'pending';
}

export interface FakeFlutterwaveFunding extends FakeFundingProvider {
  /** When set, account creation is refused: HTTP 400 with the documented error envelope and this message. */
  refuse_creation: string | null;
  /** The requests received whose path starts with the prefix, each with its query. */
  calls(path_prefix: string): ReadonlyArray<{ method: string; path: string; query: Record<string, string>; body: unknown }>;
  delay_ms: number;
  alter(provider_reference: string, change: FlutterwaveRecordChange): void;
  pay_in_silently(args: { account_number: string; amount_kobo: number; fee_kobo?: number }): FakeTransfer;
  /** Records a transfer dated at an instant (for listing windows). */
  pay_in_at(args: { account_number: string; amount_kobo: number; fee_kobo?: number; at_ms: number }): FakeTransfer;
}

export async function start_fake_flutterwave_funding(t: { teardown(fn: () => unknown): void }): Promise<FakeFlutterwaveFunding> {
  const accounts: Account[] = [];
  const transfers = new Map<string, Transfer>();
  let sequence = 0;
  const next = () => ++sequence;

  function transaction_json(transfer: Transfer, template: Record<string, any>): Record<string, any> {
    Object.assign(template, {
      id: transfer.id, tx_ref: transfer.account.tx_ref, flw_ref: transfer.flw_ref, amount: kobo_to_naira(transfer.amount_kobo), currency: 'NGN',
      charged_amount: kobo_to_naira(transfer.amount_kobo), app_fee: kobo_to_naira(transfer.fee_kobo), merchant_fee: 0, status: transfer.status,
      payment_type: 'bank_transfer', narration: transfer.account.narration, created_at: transfer.created_at,
    });
    if ('amount_settled' in template) template.amount_settled = kobo_to_naira(transfer.amount_kobo - transfer.fee_kobo);
    delete template.card;
    if (template.customer !== undefined) template.customer = { ...template.customer, email: transfer.account.email, name: transfer.account.narration };
    return template;
  }

  function route(call: RecordedCall): Answer {
    if (fake.down) return { status: 503, body: funding_fixture('flutterwave', 'timeout-503') };
    if (call.headers.authorization !== `Bearer ${flutterwave_funding_secret_key}`) return { status: 401, body: funding_fixture('flutterwave', 'unauthorized-401') };
    const body = (call.body ?? {}) as Record<string, any>;

    if (call.method === 'POST' && call.path === '/v3/virtual-account-numbers') {
      if (fake.refuse_creation !== null) return { status: 400, body: { ...funding_fixture('flutterwave', 'unauthorized-401'), message: fake.refuse_creation } };
      const n = next();
      const account: Account = {
        account_number: `78${String(24_822_527 + n).padStart(8, '0')}`,
        order_ref: `URF_${1_613_406_439_309 + n}_${370_935 + n}`,
        flw_ref: `FLW-${n.toString(16).padStart(32, '0')}`,
        tx_ref: String(body.tx_ref ?? ''),
        email: String(body.email ?? ''),
        narration: String(body.narration ?? ''),
        created_at: new Date().toISOString(),
      };
      accounts.push(account);
      const out = funding_fixture('flutterwave', 'virtual-account-create');
      Object.assign(out.data, {
        flw_ref: account.flw_ref, order_ref: account.order_ref, account_number: account.account_number,
        created_at: account.created_at.replace('T', ' ').slice(0, 19), note: `Please make a bank transfer to ${account.narration}`,
      });
      return { status: 200, body: out };
    }

    const verify = /^\/v3\/transactions\/([^/]+)\/verify$/.exec(call.path);
    if (call.method === 'GET' && verify !== null) {
      const transfer = transfers.get(decodeURIComponent(verify[1]));
      if (transfer === undefined) return { status: 400, body: funding_fixture('flutterwave', 'transaction-not-found-400') };
      const out = funding_fixture('flutterwave', 'transaction-verify-bank-transfer');
      transaction_json(transfer, out.data);
      return { status: 200, body: out };
    }

    if (call.method === 'GET' && call.path === '/v3/transactions') {
      // from and to are dates, both days included.
      const from = call.query.get('from');
      const to = call.query.get('to');
      const page = Math.max(1, Number(call.query.get('page') ?? 1) || 1);
      const matching = [...transfers.values()].filter((transfer) => {
        const day = transfer.created_at.slice(0, 10);
        return (from === null || day >= from) && (to === null || day <= to);
      }).reverse();
      const out = funding_fixture('flutterwave', 'transactions-list');
      const template = out.data[0];
      out.data = matching.slice((page - 1) * flutterwave_page_size, page * flutterwave_page_size)
        .map((transfer) => transaction_json(transfer, structuredClone(template)));
      out.meta = { page_info: { total: matching.length, current_page: page, total_pages: Math.max(1, Math.ceil(matching.length / flutterwave_page_size)) } };
      return { status: 200, body: out };
    }

    return { status: 404, body: { status: 'error', message: 'Not found', data: null } };
  }

  function record(args: { account_number: string; amount_kobo: number; fee_kobo?: number; at_ms?: number }): Transfer {
    const account = accounts.find((a) => a.account_number === args.account_number);
    if (account === undefined) throw new Error(`fake Flutterwave: no virtual account ${args.account_number}`);
    const n = next();
    const transfer: Transfer = {
      id: 8_321_945 + n, account, flw_ref: `8016915561111736${String(n).padStart(9, '0')}`, amount_kobo: args.amount_kobo,
      fee_kobo: args.fee_kobo ?? 0, status: 'successful', created_at: new Date(args.at_ms ?? Date.now()).toISOString(),
    };
    transfers.set(String(transfer.id), transfer);
    return transfer;
  }

  const fake_transfer = (transfer: Transfer): FakeTransfer => ({
    provider_reference: String(transfer.id), account_number: transfer.account.account_number, amount_kobo: transfer.amount_kobo, fee_kobo: transfer.fee_kobo,
  });

  const server = new FakeProviderServer(route);
  const fake: FakeFlutterwaveFunding = {
    kind: 'flutterwave',
    get base_url() {
      return server.base_url;
    },
    down: false,
    refuse_creation: null,
    get delay_ms() {
      return server.delay_ms;
    },
    set delay_ms(ms: number) {
      server.delay_ms = ms;
    },
    entry(name: string) {
      return { name, kind: 'flutterwave', base_url: server.base_url, api_key: flutterwave_funding_public_key, secret_key: flutterwave_funding_secret_key, secret_hash: flutterwave_secret_hash };
    },
    pay_in(args) {
      const transfer = record(args);
      const event = funding_fixture('flutterwave', 'charge-completed-bank-transfer');
      transaction_json(transfer, event.data);
      const raw = Buffer.from(JSON.stringify(event), 'utf8');
      const callback: FakeCallback = { raw, headers: { 'content-type': 'application/json', 'verif-hash': flutterwave_secret_hash } };
      return { ...fake_transfer(transfer), callback };
    },
    pay_in_silently(args) {
      return fake_transfer(record(args));
    },
    pay_in_at(args) {
      return fake_transfer(record(args));
    },
    alter(provider_reference, change) {
      const transfer = transfers.get(provider_reference);
      if (transfer === undefined) throw new Error(`fake Flutterwave: no transfer ${provider_reference}`);
      if (change.amount_kobo !== undefined) transfer.amount_kobo = change.amount_kobo;
      if (change.fee_kobo !== undefined) transfer.fee_kobo = change.fee_kobo;
      if (change.status !== undefined) transfer.status = change.status;
    },
    accounts() {
      return accounts.map((account) => ({ account_number: account.account_number, bank_name: 'WEMA BANK', account_name: account.narration, customer_reference: account.tx_ref }));
    },
    calls(path_prefix) {
      return server.calls(path_prefix);
    },
    stop() {
      return server.stop();
    },
  };
  await server.start();
  t.teardown(() => server.stop());
  return fake;
}
