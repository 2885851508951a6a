// A fake Monnify (reserved accounts, transaction status and search, the SUCCESSFUL_TRANSACTION callback), the
// shape src/services/funding/monnify.ts speaks, over real HTTP on 127.0.0.1 (docs/style.md "Tests"):
//   POST /api/v1/auth/login                                    Basic base64(apiKey:secretKey) → accessToken
//   GET  /api/v2/bank-transfer/reserved-accounts/{reference}   the customer's accounts, or 404
//   POST /api/v2/bank-transfer/reserved-accounts               one account per partner bank
//   GET  /api/v2/transactions/{transactionReference}           a transfer's status, or 404
//   GET  /api/v1/transactions/search?page&size&from&to         the transfers, paged
// Every answer is a recorded documented answer (test/fixtures/funding/monnify/, one file each with its page)
// with this fake's values filled in. The fake keeps Monnify's own record of every account and transfer, which
// its status and search answer; pay_in returns the callback Monnify would send, signed as documented.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import type { FakeCallback, FakeFundingProvider, FakeTransfer } from './fake-funding.js';
import { funding_fixture } from './funding-fixtures.js';

interface Account {
  account_number: string;
  bank_name: string;
  bank_code: string;
  account_name: string;
  customer_reference: string;
}

interface Transfer extends FakeTransfer {
  customer_reference: string;
  paid_ms: number;
  /** What Monnify's own record says was paid, when a test makes it disagree with a callback. */
  recorded_kobo: number;
  status: 'PAID' | 'PENDING' | 'FAILED';
}

const naira = (kobo: number): number => kobo / 100;
const naira_text = (kobo: number): string => `${Math.trunc(kobo / 100)}.${String(kobo % 100).padStart(2, '0')}`;

export interface FakeMonnify extends FakeFundingProvider {
  readonly api_key: string;
  readonly secret_key: string;
  readonly contract_code: string;
  /** A transfer Monnify's API will report, without its callback (a callback that never comes). */
  record_transfer(args: { account_number: string; amount_kobo: number; fee_kobo?: number; status?: 'PAID' | 'PENDING' | 'FAILED' }): FakeTransfer;
  /** A signed callback about a transfer, with fields of eventData replaced (a callback that disagrees with the API). */
  callback_for(provider_reference: string, event_data: Record<string, unknown>): FakeCallback;
  /** Signs any body as Monnify does. */
  sign(raw: Buffer): string;
}

export async function start_fake_monnify(): Promise<FakeMonnify> {
  const api_key = 'MK_TEST_' + randomBytes(5).toString('hex').toUpperCase();
  const secret_key = randomBytes(16).toString('hex').toUpperCase();
  const contract_code = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
  const tokens = new Set<string>();
  const accounts: Account[] = [];
  const transfers = new Map<string, Transfer>();
  const calls: { method: string; path: string; body: unknown }[] = [];
  let next_number = 6_100_000_000 + Math.floor(Math.random() * 800_000_000);
  let next_transfer = 1;
  const sockets = new Set<Socket>();

  const sign = (raw: Buffer) => createHmac('sha512', secret_key).update(raw).digest('hex');

  const accounts_body = (reference: string, name: string, email: string, customer_name: string) => {
    const answer = funding_fixture('monnify', 'reserved-account-v2-success');
    const mine = accounts.filter((a) => a.customer_reference === reference);
    Object.assign(answer.responseBody, {
      contractCode: contract_code,
      accountReference: reference,
      accountName: name,
      customerEmail: email,
      customerName: customer_name,
      accounts: mine.map((a) => ({ bankCode: a.bank_code, bankName: a.bank_name, accountNumber: a.account_number, accountName: a.account_name })),
    });
    return answer;
  };
  const customers = new Map<string, { name: string; email: string; customer_name: string }>();

  const status_body = (t: Transfer) => {
    const answer = funding_fixture('monnify', 'transaction-status-paid');
    Object.assign(answer.responseBody, {
      transactionReference: t.provider_reference,
      paymentReference: t.provider_reference,
      amountPaid: naira_text(t.recorded_kobo),
      totalPayable: naira_text(t.recorded_kobo),
      settlementAmount: naira_text(t.recorded_kobo - t.fee_kobo),
      paymentStatus: t.status,
      product: { type: 'RESERVED_ACCOUNT', reference: t.customer_reference },
    });
    return answer.responseBody;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = text;
      }
      calls.push({ method: req.method ?? '', path: url.pathname + url.search, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (fake.down) return send(503, funding_fixture('monnify', 'server-error-503'));
      const auth = req.headers.authorization ?? '';
      if (req.method === 'POST' && url.pathname === '/api/v1/auth/login') {
        if (auth !== 'Basic ' + Buffer.from(`${api_key}:${secret_key}`).toString('base64')) return send(401, funding_fixture('monnify', 'login-refused-401'));
        const answer = funding_fixture('monnify', 'login-success');
        const token = randomBytes(24).toString('base64url');
        tokens.add(token);
        answer.responseBody.accessToken = token;
        return send(200, answer);
      }
      if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) return send(401, funding_fixture('monnify', 'login-refused-401'));
      const reserved = /^\/api\/v2\/bank-transfer\/reserved-accounts(?:\/(.+))?$/.exec(url.pathname);
      if (reserved !== null && req.method === 'GET' && reserved[1] !== undefined) {
        const reference = decodeURIComponent(reserved[1]);
        const customer = customers.get(reference);
        if (customer === undefined) return send(404, funding_fixture('monnify', 'reserved-account-not-found'));
        return send(200, accounts_body(reference, customer.name, customer.email, customer.customer_name));
      }
      if (reserved !== null && req.method === 'POST' && reserved[1] === undefined) {
        if (body?.contractCode !== contract_code || typeof body?.accountReference !== 'string' || typeof body?.customerEmail !== 'string') {
          return send(400, { requestSuccessful: false, responseMessage: 'Invalid request', responseCode: '99' });
        }
        const reference = body.accountReference as string;
        if (!customers.has(reference)) {
          customers.set(reference, { name: body.accountName, email: body.customerEmail, customer_name: body.customerName });
          const banks = funding_fixture('monnify', 'reserved-account-v2-success').responseBody.accounts as { bankCode: string; bankName: string }[];
          for (const bank of body.getAllAvailableBanks === true ? banks : banks.slice(0, 1)) {
            accounts.push({ account_number: String(next_number++), bank_name: bank.bankName, bank_code: bank.bankCode, account_name: String(body.accountName).slice(0, 40), customer_reference: reference });
          }
        }
        const customer = customers.get(reference)!;
        return send(200, accounts_body(reference, customer.name, customer.email, customer.customer_name));
      }
      const status = /^\/api\/v2\/transactions\/(.+)$/.exec(url.pathname);
      if (status !== null && req.method === 'GET') {
        const transfer = transfers.get(decodeURIComponent(status[1]));
        if (transfer === undefined) return send(404, funding_fixture('monnify', 'transaction-status-not-found'));
        const answer = funding_fixture('monnify', 'transaction-status-paid');
        answer.responseBody = status_body(transfer);
        return send(200, answer);
      }
      if (url.pathname === '/api/v1/transactions/search' && req.method === 'GET') {
        const page = Number(url.searchParams.get('page') ?? 0);
        const size = Number(url.searchParams.get('size') ?? 10);
        const from = Number(url.searchParams.get('from') ?? 0);
        const to = Number(url.searchParams.get('to') ?? Number.MAX_SAFE_INTEGER);
        const all = [...transfers.values()].filter((t) => t.paid_ms >= from && t.paid_ms <= to);
        const rows = all.slice(page * size, (page + 1) * size).map(status_body);
        const answer = funding_fixture('monnify', 'transactions-search-page');
        Object.assign(answer.responseBody, {
          content: rows,
          last: (page + 1) * size >= all.length,
          totalElements: all.length,
          totalPages: Math.max(1, Math.ceil(all.length / size)),
          numberOfElements: rows.length,
          size,
          number: page,
          first: page === 0,
          empty: rows.length === 0,
        });
        return send(200, answer);
      }
      send(404, { requestSuccessful: false, responseMessage: 'Not found', responseCode: '99' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const record = (args: { account_number: string; amount_kobo: number; fee_kobo?: number; status?: 'PAID' | 'PENDING' | 'FAILED' }): Transfer => {
    const account = accounts.find((a) => a.account_number === args.account_number);
    const reference = `MNFY|04|${Date.now()}|${String(next_transfer++).padStart(6, '0')}`;
    const fee = args.fee_kobo ?? Math.min(Math.floor(args.amount_kobo / 100), 500_00);
    const transfer: Transfer = {
      provider_reference: reference,
      account_number: args.account_number,
      amount_kobo: args.amount_kobo,
      fee_kobo: fee,
      customer_reference: account?.customer_reference ?? 'unknown-reference',
      paid_ms: Date.now(),
      recorded_kobo: args.amount_kobo,
      status: args.status ?? 'PAID',
    };
    transfers.set(reference, transfer);
    return transfer;
  };

  const callback_for = (provider_reference: string, overrides: Record<string, unknown> = {}): FakeCallback => {
    const t = transfers.get(provider_reference);
    if (t === undefined) throw new Error(`fake monnify: no transfer ${provider_reference}`);
    const account = accounts.find((a) => a.account_number === t.account_number);
    const event = funding_fixture('monnify', 'webhook-successful-transaction');
    Object.assign(event.eventData, {
      product: { reference: t.customer_reference, type: 'RESERVED_ACCOUNT' },
      transactionReference: t.provider_reference,
      paymentReference: t.provider_reference,
      amountPaid: naira(t.amount_kobo),
      totalPayable: naira(t.amount_kobo),
      settlementAmount: naira_text(t.amount_kobo - t.fee_kobo),
      destinationAccountInformation: { bankCode: account?.bank_code ?? '232', bankName: account?.bank_name ?? 'Sterling bank', accountNumber: t.account_number },
      ...overrides,
    });
    const raw = Buffer.from(JSON.stringify(event));
    return { raw, headers: { 'content-type': 'application/json', 'monnify-signature': sign(raw) } };
  };

  const fake: FakeMonnify = {
    kind: 'monnify',
    base_url: `http://127.0.0.1:${port}`,
    api_key,
    secret_key,
    contract_code,
    down: false,
    entry(name: string) {
      return { name, kind: 'monnify', base_url: `http://127.0.0.1:${port}`, api_key, secret_key, contract_code };
    },
    pay_in(args) {
      const t = record(args);
      return { provider_reference: t.provider_reference, account_number: t.account_number, amount_kobo: t.amount_kobo, fee_kobo: t.fee_kobo, callback: callback_for(t.provider_reference) };
    },
    record_transfer(args) {
      const t = record(args);
      return { provider_reference: t.provider_reference, account_number: t.account_number, amount_kobo: t.amount_kobo, fee_kobo: t.fee_kobo };
    },
    callback_for,
    sign,
    accounts() {
      return accounts.map((a) => ({ account_number: a.account_number, bank_name: a.bank_name, account_name: a.account_name, customer_reference: a.customer_reference }));
    },
    calls(prefix: string) {
      return calls.filter((c) => c.path.startsWith(prefix));
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
