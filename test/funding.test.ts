// Wallet funding and its wallet.credited events: the bank partner's signed transfer notifications
// (live wallet, idempotent by the bank's reference), the sandbox self-service top-up (test keys only)
// and operator credits. Events go to real HTTPS receivers that verify both signatures.
import t, { type Test } from 'tap';
import { createHmac, randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { sleep } from './helpers/fixtures-http.js';

const funding_secret = `bank-${randomBytes(16).toString('hex')}`;
const server = await start_server(t, { env: webhook_env({ TIME_SCALE: '0.001', FUNDING_WEBHOOK_SECRET: funding_secret, LOG_LEVEL: 'warn' }) });

interface Funded {
  id: number;
  pin: string;
  test_key: string;
  live_key: string;
}

/** An account with a test key, a live key and a receiver per environment. */
async function account_with_receivers(t: Test): Promise<{ account: Funded; test_receiver: WebhookReceiver; live_receiver: WebhookReceiver }> {
  const made = await server.reseller(1000, {}, { rate_limit_per_minute: 1_000_000 });
  const live = await server.create_key(made.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const account = { id: made.id, pin: made.pin, test_key: made.key, live_key: live.api_key };
  const test_receiver = await receiver_for(t, account.test_key);
  const live_receiver = await receiver_for(t, account.live_key);
  return { account, test_receiver, live_receiver };
}

/** The endpoint each receiver is registered as, for barrier(). */
const endpoint_of = new Map<WebhookReceiver, { key: string; id: number }>();

async function receiver_for(t: Test, key: string): Promise<WebhookReceiver> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const created = await server.api('POST', '/v1/webhooks', { key, body: { url: receiver.url } });
  t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
  receiver.secret = created.body.data.secret;
  endpoint_of.set(receiver, { key, id: created.body.data.id });
  return receiver;
}

/**
 * Waits on an event instead of for a while: a webhook.test event to each receiver's endpoint, made
 * after everything before it, so that an event that should not exist would have been started first.
 * The barrier's own requests are then taken out of the receivers' logs.
 */
async function barrier(...receivers: WebhookReceiver[]): Promise<void> {
  for (const receiver of receivers) {
    const { key, id } = endpoint_of.get(receiver)!;
    const sent = await server.api('POST', `/v1/webhooks/${id}/test`, { key });
    if (sent.status !== 202) throw new Error(`the barrier's test event answered ${sent.status} ${sent.text}`);
    await eventually(() => receiver.received.some((r) => r.json?.id === sent.body.data.event_id), 10_000, 'the barrier\'s test event');
    for (let i = receiver.received.length - 1; i >= 0; i--) if (receiver.received[i].json?.event === 'webhook.test') receiver.received.splice(i, 1);
  }
}

function signature(raw: string | Buffer, secret = funding_secret): string {
  return 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
}

function bank_transfer(raw: string, signature_header: string | null, on: TestServer = server): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature_header !== null) headers['x-signature'] = signature_header;
  return on.request('POST', '/v1/funding/bank-transfer', { raw_body: raw, headers });
}

function signed_transfer(body: Record<string, unknown>): Promise<ApiResponse> {
  const raw = JSON.stringify(body);
  return bank_transfer(raw, signature(raw));
}

async function balance(key: string): Promise<number> {
  const wallet = await server.api('GET', '/v1/wallet', { key });
  if (wallet.status !== 200) throw new Error(`GET /v1/wallet answered ${wallet.status} ${wallet.text}`);
  return wallet.body.data.balance;
}

async function entries(key: string): Promise<any[]> {
  const response = await server.api('GET', '/v1/wallet/transactions?per_page=100', { key });
  return response.body.data.transactions;
}

async function eventually<T>(read: () => T | null | undefined | false, limit_ms: number, what: string): Promise<T> {
  const deadline = Date.now() + limit_ms;
  for (;;) {
    const value = read();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${limit_ms} ms waiting for ${what}`);
    await sleep(20);
  }
}

function credited(receiver: WebhookReceiver, reference: string) {
  return receiver.events('wallet.credited').filter((r) => r.json.data.reference === reference);
}

function code_of(response: ApiResponse): string | undefined {
  return response.body?.error?.code;
}

t.test('a signed bank transfer credits the live wallet once and tells the live endpoints with wallet.credited', async (t) => {
  const { account, test_receiver, live_receiver } = await account_with_receivers(t);
  const test_before = await balance(account.test_key);
  const reference = `NIP-${randomBytes(6).toString('hex')}`;
  const body = { reference, account_id: account.id, amount: 25_000.5, sender_name: 'Adaeze Okafor', narration: 'wallet top-up' };
  const raw = JSON.stringify(body);

  const first = await bank_transfer(raw, signature(raw));
  t.equal(first.status, 201, `the first notification credits: ${first.text}`);
  t.equal(first.body?.data?.received, true, 'the bank is told the notification was received');
  const entry = first.body?.data?.wallet_transaction;
  t.equal(entry?.type, 'credit', 'the wallet transaction is a credit');
  t.equal(entry?.amount, 25_000.5, 'of the transferred amount');
  t.equal(entry?.reference, reference, 'under the bank\'s reference');
  t.equal(entry?.balance_before, 0, 'onto an empty live wallet');
  t.equal(entry?.balance_after, 25_000.5, 'leaving the amount as the balance');
  t.match(String(entry?.description), /Adaeze Okafor/, 'the description names the sender');
  t.equal(await balance(account.live_key), 25_000.5, 'the live wallet holds the transfer');
  t.equal(await balance(account.test_key), test_before, 'the test wallet is untouched');

  const repeat = await bank_transfer(raw, signature(raw));
  t.equal(repeat.status, 200, 'a repeated notification answers 200');
  t.same(repeat.body?.data?.wallet_transaction, entry, 'with the first credit');
  const changed = await signed_transfer({ ...body, amount: 30_000 });
  t.equal(changed.status, 422, `the same reference with another amount is refused: ${changed.text}`);
  t.equal(await balance(account.live_key), 25_000.5, 'neither the repeat nor the changed amount credited again');
  t.same((await entries(account.live_key)).map((e) => e.reference), [reference], 'the live history has the one credit');

  const [event] = await eventually(() => credited(live_receiver, reference).length > 0 && credited(live_receiver, reference), 10_000, 'wallet.credited at the live endpoint');
  t.ok(event.service_signature_ok && event.standard_signature_ok, 'the event is signed with the live endpoint\'s secret');
  t.same(event.json.data, { wallet_transaction_id: entry.id, type: 'credit', amount: 25_000.5, balance_after: 25_000.5, reference, created_at: entry.created_at }, 'the event carries the credit');

  // A later credit is the barrier: once it has arrived, a second event for the first would have too.
  const barrier_reference = `NIP-${randomBytes(6).toString('hex')}`;
  t.equal((await signed_transfer({ reference: barrier_reference, account_id: account.id, amount: 10 })).status, 201, 'a second transfer credits');
  await eventually(() => credited(live_receiver, barrier_reference).length > 0, 10_000, 'the second transfer\'s event');
  await barrier(test_receiver);
  t.equal(new Set(credited(live_receiver, reference).map((r) => r.json.id)).size, 1, 'the repeat caused no second wallet.credited');
  t.same(test_receiver.received, [], 'the test endpoint heard nothing of live money');
});

t.test('a bank notification without a valid X-Signature is 401 funding.invalid_signature and credits nothing', async (t) => {
  const { account, live_receiver } = await account_with_receivers(t);
  const body = { reference: `NIP-${randomBytes(6).toString('hex')}`, account_id: account.id, amount: 5000 };
  const raw = JSON.stringify(body);
  const tampered = JSON.stringify({ ...body, amount: 5_000_000 });
  const digest = createHmac('sha256', funding_secret).update(raw).digest('hex');
  const rows: [string, string, string | null][] = [
    ['no X-Signature header', raw, null],
    ['an empty X-Signature', raw, ''],
    ['a signature made with another secret', raw, signature(raw, 'not-the-bank-secret')],
    ['the digest without the sha256= prefix', raw, digest],
    ['a sha1= prefix on the right digest', raw, `sha1=${digest}`],
    ['the signature of another body', tampered, signature(raw)],
    ['a truncated digest', raw, signature(raw).slice(0, 40)],
    ['a signature of invalid JSON that is not its own', '{not json', signature(raw)],
  ];
  for (const [what, payload, header] of rows) {
    const response = await bank_transfer(payload, header);
    t.equal(response.status, 401, `${what}: 401`);
    t.equal(code_of(response), 'funding.invalid_signature', `${what}: funding.invalid_signature`);
  }
  t.equal(await balance(account.live_key), 0, 'nothing was credited');
  const good = await bank_transfer(raw, signature(raw));
  t.equal(good.status, 201, 'the same notification correctly signed credits');
  t.equal(await balance(account.live_key), 5000, 'by its own amount, not the tampered one');
  await eventually(() => live_receiver.events('wallet.credited').length > 0, 10_000, 'the one wallet.credited');
  await barrier(live_receiver);
  t.equal(live_receiver.events('wallet.credited').length, 1, 'only the valid notification made an event');
});

t.test('a correctly signed bank notification is still checked: JSON, fields, amount and account', async (t) => {
  const { account } = await account_with_receivers(t);
  const reference = () => `NIP-${randomBytes(6).toString('hex')}`;
  const rows: [string, string, number, string][] = [
    ['malformed JSON', '{"reference": "x", ', 400, 'request.malformed_json'],
    ['no reference', JSON.stringify({ account_id: account.id, amount: 100 }), 400, 'validation.failed'],
    ['no account_id', JSON.stringify({ reference: reference(), amount: 100 }), 400, 'validation.failed'],
    ['no amount', JSON.stringify({ reference: reference(), account_id: account.id }), 400, 'validation.failed'],
    ['an amount of 0', JSON.stringify({ reference: reference(), account_id: account.id, amount: 0 }), 400, 'validation.failed'],
    ['a negative amount', JSON.stringify({ reference: reference(), account_id: account.id, amount: -100 }), 400, 'validation.failed'],
    ['an amount with 3 decimals', JSON.stringify({ reference: reference(), account_id: account.id, amount: 100.125 }), 400, 'validation.failed'],
    ['an amount as a string', JSON.stringify({ reference: reference(), account_id: account.id, amount: '100' }), 400, 'validation.failed'],
    ['a currency other than NGN', JSON.stringify({ reference: reference(), account_id: account.id, amount: 100, currency: 'USD' }), 400, 'validation.failed'],
    ['a reference with spaces', JSON.stringify({ reference: 'NIP 123', account_id: account.id, amount: 100 }), 400, 'validation.failed'],
    ['an unknown account', JSON.stringify({ reference: reference(), account_id: 987_654, amount: 100 }), 404, 'account.not_found'],
  ];
  for (const [what, raw, status, code] of rows) {
    const response = await bank_transfer(raw, signature(raw));
    t.equal(response.status, status, `${what}: ${status}`);
    t.equal(code_of(response), code, `${what}: ${code}`);
  }
  t.equal(await balance(account.live_key), 0, 'nothing was credited');
});

// Not 503, which says "try again": asking again will not configure it (docs/decisions.md "Dedicated-account funding").
t.test('without FUNDING_WEBHOOK_SECRET the bank notification route answers 404 funding.not_configured', async (t) => {
  const unconfigured = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
  const account = await unconfigured.create_account();
  const raw = JSON.stringify({ reference: 'NIP-unconfigured', account_id: account.id, amount: 100 });
  for (const [what, header] of [['signed with any secret', signature(raw, 'guess')], ['unsigned', null]] as const) {
    const response = await bank_transfer(raw, header, unconfigured);
    t.equal(response.status, 404, `${what}: 404`);
    t.equal(code_of(response), 'funding.not_configured', `${what}: funding.not_configured`);
  }
  const key = await unconfigured.create_key(account.id, { environment: 'live' });
  const wallet = await unconfigured.api('GET', '/v1/wallet', { key: key.api_key });
  t.equal(wallet.body.data.balance, 0, 'nothing was credited');
});

t.test('the sandbox top-up adds test money, up to 10,000,000 NGN a call, and sends wallet.credited', async (t) => {
  const { account, test_receiver, live_receiver } = await account_with_receivers(t);
  let expected = await balance(account.test_key);
  const rows: [string, unknown, number][] = [
    ['1 kobo', 0.01, 201],
    ['an amount with 2 decimals', 1234.56, 201],
    ['exactly 10,000,000', 10_000_000, 201],
    ['10,000,000.01', 10_000_000.01, 400],
    ['20,000,000', 20_000_000, 400],
    ['0', 0, 400],
    ['a negative amount', -50, 400],
    ['3 decimals', 10.001, 400],
    ['a string', '100', 400],
    ['null', null, 400],
  ];
  const references: string[] = [];
  for (const [what, amount, status] of rows) {
    const response = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.test_key, body: { amount } });
    t.equal(response.status, status, `a top-up of ${what} answers ${status}`);
    if (status === 201) {
      expected = Math.round((expected + (amount as number)) * 100) / 100;
      t.equal(response.body.data.type, 'credit', `${what}: a credit`);
      t.equal(response.body.data.amount, amount, `${what}: of the amount asked`);
      t.equal(response.body.data.balance_after, expected, `${what}: the balance grows by it`);
      t.match(response.body.data.reference, /^\S+$/, `${what}: a reference is made up when none is given`);
      references.push(response.body.data.reference);
    } else {
      t.equal(code_of(response), 'validation.failed', `${what}: validation.failed`);
      t.same(response.body?.error?.details?.map((d: any) => d.field), ['amount'], `${what}: the details name amount`);
    }
  }
  t.equal(new Set(references).size, references.length, 'each top-up without a reference gets its own');
  t.equal(await balance(account.test_key), expected, 'the refused top-ups added nothing');

  const reference = `MY-TOPUP-${randomBytes(4).toString('hex')}`;
  const named = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.test_key, body: { amount: 700, reference } });
  t.equal(named.status, 201, 'a top-up with its own reference');
  t.equal(named.body.data.reference, reference, 'keeps that reference');
  const again = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.test_key, body: { amount: 700, reference } });
  t.equal(again.body?.data?.id, named.body.data.id, 'the same reference again returns the first credit');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'marked Idempotent-Replayed');
  t.equal(await balance(account.test_key), expected + 700, 'and credits only once');

  const live = await server.api('POST', '/v1/sandbox/wallet/fund', { key: account.live_key, body: { amount: 100 } });
  t.equal(live.status, 403, 'a live key cannot top up: 403');
  t.equal(code_of(live), 'auth.insufficient_scope', 'a live key gets auth.insufficient_scope');
  t.equal(await balance(account.live_key), 0, 'the live wallet is untouched');

  await eventually(() => test_receiver.events('wallet.credited').length >= references.length + 1, 10_000, 'a wallet.credited per top-up');
  await barrier(test_receiver, live_receiver);
  const events = test_receiver.events('wallet.credited');
  t.same(new Set(events.map((r) => r.json.data.reference)), new Set([...references, reference]), 'one wallet.credited per top-up, under its reference');
  t.equal(new Set(events.map((r) => r.json.id)).size, references.length + 1, 'the repeated reference made no second event');
  t.ok(events.every((r) => r.service_signature_ok && r.standard_signature_ok), 'every event is signed');
  t.same(live_receiver.received, [], 'the live endpoint heard nothing of sandbox money');
});

t.test('an operator credit sends one wallet.credited to the endpoints of its environment, however often it is repeated', async (t) => {
  const { account, test_receiver, live_receiver } = await account_with_receivers(t);
  const rows: ['live' | 'test', WebhookReceiver, WebhookReceiver][] = [['live', live_receiver, test_receiver], ['test', test_receiver, live_receiver]];
  for (const [environment, hears, deaf] of rows) {
    const reference = `OPS-${environment}-${randomBytes(4).toString('hex')}`;
    const first = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment, amount: 1500, reference, description: 'Cash deposit at branch' });
    t.equal(first.status, 201, `the ${environment} credit is made`);
    const repeat = await server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment, amount: 1500, reference, description: 'Cash deposit at branch' });
    t.equal(repeat.body?.data?.id, first.body.data.id, `the repeated ${environment} credit returns the first`);
    const [event] = await eventually(() => credited(hears, reference).length > 0 && credited(hears, reference), 10_000, `the ${environment} credit's event`);
    t.equal(event.json.data.wallet_transaction_id, first.body.data.id, `the ${environment} endpoint got the credit`);
    t.equal(event.json.data.amount, 1500, `with its amount`);
    t.equal(event.json.data.balance_after, first.body.data.balance_after, `and the balance after it`);
    await barrier(hears, deaf);
    t.equal(new Set(credited(hears, reference).map((r) => r.json.id)).size, 1, `the repeated ${environment} credit made no second event`);
    t.same(credited(deaf, reference), [], `the other environment's endpoint heard nothing of the ${environment} credit`);
  }
});
