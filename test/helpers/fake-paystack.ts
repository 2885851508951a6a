// A fake Paystack, the Dedicated Virtual Account side of it, over real HTTP on 127.0.0.1 (docs/style.md
// "Tests": a fake stands only for what lives outside, and speaks HTTP). It answers what
// src/services/funding/paystack.ts asks, as Paystack documents it (docs/funding.md "Paystack"):
//   GET  /customer/{email_or_code}   POST /customer
//   GET  /dedicated_account?customer=&active=   POST /dedicated_account
//   GET  /dedicated_account/requery?account_number=&provider_slug=&date=
//   GET  /transaction/verify/{reference}   GET /transaction?from=&to=&perPage=&page=&channel=
// with Authorization: Bearer <secret key>; anything else answers the documented 401. Every answer is a
// recorded documented answer (test/fixtures/funding/paystack/, one file per answer with its page) with this
// request's values filled in. pay_in records a transfer into a DVA as Paystack's API will then report it, and
// returns the charge.success event Paystack would send, signed as documented (x-paystack-signature: hex
// HMAC-SHA512 of the raw body keyed with the secret key).
import { createHmac } from 'node:crypto';
import type { FakeCallback, FakeFundingProvider, FakeTransfer } from './fake-funding.js';
import { funding_fixture } from './funding-fixtures.js';
import { FakeProviderServer, type Answer, type RecordedCall } from './fake-provider-server.js';

export const paystack_secret_key = 'sk_test_billvend_fake_paystack_0001';

interface Customer {
  id: number;
  customer_code: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  metadata: unknown;
}

interface Account {
  id: number;
  account_number: string;
  account_name: string;
  customer: Customer;
  created_at: string;
}

interface Transfer {
  id: number;
  reference: string;
  account_number: string;
  amount_kobo: number;
  fee_kobo: number;
  status: string;
  paid_at: string;
  customer: Customer;
}

/** Paystack's own record of a transfer can be changed after the callback (a verify that disagrees). */
export interface PaystackRecordChange {
  amount_kobo?: number;
  fee_kobo?: number;
  status?: 'success' | 'failed' | 'reversed' | 'ongoing';
  account_number?: string;
}

export interface FakePaystack extends FakeFundingProvider {
  /** The requests received whose path starts with the prefix, each with its query. */
  calls(path_prefix: string): ReadonlyArray<{ method: string; path: string; query: Record<string, string>; body: unknown }>;
  /** Answers wait this long (past a module's timeout_ms, to test it). */
  delay_ms: number;
  /** Rows per page of GET /transaction at most, whatever perPage asks (to make several pages). */
  per_page_cap: number;
  /** Changes Paystack's record of a transfer: what verify and the list report from then on. */
  alter(reference: string, change: PaystackRecordChange): void;
  /** A transfer Paystack records without sending its callback (a callback that never comes). */
  pay_in_silently(args: { account_number: string; amount_kobo: number; fee_kobo?: number }): FakeTransfer;
}

const bank = { name: 'Wema Bank', id: 20, slug: 'wema-bank' };

function customer_json(customer: Customer): Record<string, unknown> {
  return {
    id: customer.id, first_name: customer.first_name, last_name: customer.last_name, email: customer.email,
    customer_code: customer.customer_code, phone: customer.phone, metadata: customer.metadata, risk_action: 'default', international_format_phone: null,
  };
}

function parse_metadata(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export async function start_fake_paystack(t: { teardown(fn: () => unknown): void }): Promise<FakePaystack> {
  const customers = new Map<string, Customer>();
  const accounts: Account[] = [];
  const transfers = new Map<string, Transfer>();
  let sequence = 0;
  const next = () => ++sequence;

  const account_by_number = (number: string) => accounts.find((a) => a.account_number === number);

  /** The transaction object of verify and list: the recorded sample with this transfer's values. */
  function transaction_json(transfer: Transfer, template: Record<string, any>): Record<string, any> {
    const dva = funding_fixture('paystack', 'charge-success-dedicated-nuban').data;
    Object.assign(template, {
      id: transfer.id, status: transfer.status, reference: transfer.reference, amount: transfer.amount_kobo, fees: transfer.fee_kobo,
      gateway_response: transfer.status === 'success' ? 'Approved' : transfer.status, channel: 'dedicated_nuban', currency: 'NGN',
      paid_at: transfer.paid_at, created_at: transfer.paid_at, paidAt: transfer.paid_at, createdAt: transfer.paid_at,
      requested_amount: transfer.amount_kobo, metadata: dva.metadata, log: null,
      authorization: { ...dva.authorization, receiver_bank_account_number: transfer.account_number, receiver_bank: bank.name },
      customer: customer_json(transfer.customer),
    });
    return template;
  }

  function route(call: RecordedCall): Answer {
    if (fake.down) return { status: 503 };
    if (call.headers.authorization !== `Bearer ${paystack_secret_key}`) return { status: 401, body: funding_fixture('paystack', 'unauthorized-401') };
    const body = (call.body ?? {}) as Record<string, any>;

    if (call.method === 'POST' && call.path === '/customer') {
      const email = String(body.email ?? '');
      let customer = customers.get(email.toLowerCase());
      if (customer === undefined) {
        const id = 7_454_000 + next();
        customer = {
          id, customer_code: `CUS_fake${String(id).padStart(11, '0')}`, email, first_name: body.first_name ?? null, last_name: body.last_name ?? null,
          phone: body.phone ?? null, metadata: parse_metadata(body.metadata),
        };
        customers.set(email.toLowerCase(), customer);
      }
      const out = funding_fixture('paystack', 'customer-create');
      Object.assign(out.data, { email: customer.email, customer_code: customer.customer_code, id: customer.id });
      return { status: 200, body: out };
    }

    const fetch_customer = /^\/customer\/([^/]+)$/.exec(call.path);
    if (call.method === 'GET' && fetch_customer !== null) {
      const key = decodeURIComponent(fetch_customer[1]);
      const customer = customers.get(key.toLowerCase()) ?? [...customers.values()].find((c) => c.customer_code === key);
      if (customer === undefined) return { status: 404, body: funding_fixture('paystack', 'customer-fetch-not-found-404') };
      const out = funding_fixture('paystack', 'customer-fetch');
      const account = accounts.find((a) => a.customer === customer);
      Object.assign(out.data, {
        ...customer_json(customer), authorizations: [], dedicated_account: account === undefined ? null : {
          bank, id: account.id, account_name: account.account_name, account_number: account.account_number, created_at: account.created_at,
          updated_at: account.created_at, currency: 'NGN', active: true, assigned: true,
        },
      });
      return { status: 200, body: out };
    }

    if (call.method === 'GET' && call.path === '/dedicated_account') {
      const wanted = call.query.get('customer');
      const rows = accounts.filter((a) => wanted === null || String(a.customer.id) === wanted);
      const out = funding_fixture('paystack', 'dedicated-account-list');
      const template = out.data[0];
      out.data = rows.map((account) => ({
        ...structuredClone(template), customer: customer_json(account.customer), bank, id: account.id, account_name: account.account_name,
        account_number: account.account_number, created_at: account.created_at, updated_at: account.created_at, split_config: null, active: true, assigned: true,
      }));
      out.meta = { ...out.meta, total: rows.length, pageCount: 1 };
      return { status: 200, body: out };
    }

    if (call.method === 'POST' && call.path === '/dedicated_account') {
      const code = String(body.customer ?? '');
      const customer = [...customers.values()].find((c) => c.customer_code === code || String(c.id) === code);
      if (customer === undefined) return { status: 404, body: funding_fixture('paystack', 'not-found-404') };
      if (body.first_name !== undefined) customer.first_name = body.first_name;
      if (body.last_name !== undefined) customer.last_name = body.last_name;
      if (body.phone !== undefined) customer.phone = body.phone;
      const id = 250 + next();
      const account: Account = {
        id, account_number: `99300${String(id).padStart(5, '0')}`,
        account_name: `BILLVEND / ${[customer.first_name, customer.last_name].filter(Boolean).join(' ').toUpperCase()}`,
        customer, created_at: new Date().toISOString(),
      };
      accounts.push(account);
      const out = funding_fixture('paystack', 'dedicated-account-create');
      Object.assign(out.data, {
        bank, account_name: account.account_name, account_number: account.account_number, id: account.id, created_at: account.created_at,
        updated_at: account.created_at, customer: customer_json(customer),
      });
      out.data.assignment = { ...out.data.assignment, assignee_id: customer.id, assigned_at: account.created_at };
      return { status: 200, body: out };
    }

    if (call.method === 'GET' && call.path === '/dedicated_account/requery') {
      return { status: 200, body: funding_fixture('paystack', 'dedicated-account-requery') };
    }

    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(call.path);
    if (call.method === 'GET' && verify !== null) {
      const transfer = transfers.get(decodeURIComponent(verify[1]));
      if (transfer === undefined) return { status: 404, body: funding_fixture('paystack', 'not-found-404') };
      const out = funding_fixture('paystack', 'transaction-verify');
      transaction_json(transfer, out.data);
      return { status: 200, body: out };
    }

    if (call.method === 'GET' && call.path === '/transaction') {
      const from = Date.parse(call.query.get('from') ?? '');
      const to = Date.parse(call.query.get('to') ?? '');
      const channel = call.query.get('channel');
      const per_page = Math.min(Number(call.query.get('perPage') ?? call.query.get('per_page') ?? 50) || 50, fake.per_page_cap);
      const page = Math.max(1, Number(call.query.get('page') ?? 1) || 1);
      // Newest first, as Paystack lists.
      const matching = [...transfers.values()].filter((transfer) => {
        const at = Date.parse(transfer.paid_at);
        return (Number.isNaN(from) || at >= from) && (Number.isNaN(to) || at <= to) && (channel === null || channel === 'dedicated_nuban');
      }).reverse();
      const out = funding_fixture('paystack', 'transaction-list');
      const template = out.data[0];
      out.data = matching.slice((page - 1) * per_page, page * per_page).map((transfer) => transaction_json(transfer, structuredClone(template)));
      out.meta = {
        total: matching.length, total_volume: matching.reduce((sum, transfer) => sum + transfer.amount_kobo, 0), skipped: (page - 1) * per_page,
        perPage: per_page, page, pageCount: Math.max(1, Math.ceil(matching.length / per_page)),
      };
      return { status: 200, body: out };
    }

    return { status: 404, body: funding_fixture('paystack', 'not-found-404') };
  }

  function record(args: { account_number: string; amount_kobo: number; fee_kobo?: number }): Transfer {
    const account = account_by_number(args.account_number);
    if (account === undefined) throw new Error(`fake Paystack: no dedicated account ${args.account_number}`);
    const id = 3_104_000_000 + next();
    const transfer: Transfer = {
      id, reference: `dva${id.toString(36)}`, account_number: account.account_number, amount_kobo: args.amount_kobo,
      fee_kobo: args.fee_kobo ?? 0, status: 'success', paid_at: new Date().toISOString(), customer: account.customer,
    };
    transfers.set(transfer.reference, transfer);
    return transfer;
  }

  const fake_transfer = (transfer: Transfer): FakeTransfer => ({
    provider_reference: transfer.reference, account_number: transfer.account_number, amount_kobo: transfer.amount_kobo, fee_kobo: transfer.fee_kobo,
  });

  const server = new FakeProviderServer(route);
  const fake: FakePaystack = {
    kind: 'paystack',
    get base_url() {
      return server.base_url;
    },
    down: false,
    get delay_ms() {
      return server.delay_ms;
    },
    set delay_ms(ms: number) {
      server.delay_ms = ms;
    },
    per_page_cap: 100,
    entry(name: string) {
      return { name, kind: 'paystack', base_url: server.base_url, api_key: '', secret_key: paystack_secret_key };
    },
    pay_in(args) {
      const transfer = record(args);
      const event = funding_fixture('paystack', 'charge-success-dedicated-nuban');
      transaction_json(transfer, event.data);
      const raw = Buffer.from(JSON.stringify(event), 'utf8');
      const callback: FakeCallback = {
        raw,
        headers: { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', paystack_secret_key).update(raw).digest('hex') },
      };
      return { ...fake_transfer(transfer), callback };
    },
    pay_in_silently(args) {
      return fake_transfer(record(args));
    },
    alter(reference, change) {
      const transfer = transfers.get(reference);
      if (transfer === undefined) throw new Error(`fake Paystack: no transfer ${reference}`);
      if (change.amount_kobo !== undefined) transfer.amount_kobo = change.amount_kobo;
      if (change.fee_kobo !== undefined) transfer.fee_kobo = change.fee_kobo;
      if (change.status !== undefined) transfer.status = change.status;
      if (change.account_number !== undefined) transfer.account_number = change.account_number;
    },
    accounts() {
      return accounts.map((account) => ({
        account_number: account.account_number, bank_name: bank.name, account_name: account.account_name,
        customer_reference: String((account.customer.metadata as Record<string, unknown> | null)?.billvend_reference ?? account.customer.customer_code),
      }));
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
