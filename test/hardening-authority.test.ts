// Authority is checked where money moves (docs/decisions.md "Authority at the debit"): a purchase or a
// bulk order that began with a key which is revoked while it waits (here: for the upstream's recipient
// verification, held by the fake until the revocation has answered) debits nothing and answers 401
// auth.key_not_found, whether the operator revoked the key or the reseller did with DELETE /v1/keys/{id};
// a dashboard purchase whose session is signed out, or whose password changes, meanwhile answers 401
// session.required. Before this, the key was checked only when the request arrived, and each of these
// debited after the revocation had answered (the hostile review of 2026-11-27, finding 3).
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';
import { start_upstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { airtime_body, all_orders, balance_kobo, buy, check_error, electricity_body, idem, kobo, warm_up_live } from './helpers/purchases.js';
import { wait_for } from './helpers/fixtures-http.js';
import { hash_secret } from '../src/lib/secrets.js';

const upstream = await start_upstream(t);
// A 10 s adapter timeout: the held verifications must not time out into a 503.
const server = await start_server(t, { env: upstream.env(10_000) });
await warm_up_live(server, (await live_reseller(server)).buyer);

let meters_made = 0;
/** A meter number no other test uses, so the fake's requests for it are this test's alone. */
function new_meter(): string {
  meters_made++;
  return `45010${String(process.pid % 10_000).padStart(4, '0')}${String(meters_made).padStart(4, '0')}`;
}

let phones_made = 0;
/** A phone number no other test uses. */
function new_phone(): string {
  phones_made++;
  return `0806${String(process.pid % 1_000).padStart(3, '0')}${String(phones_made).padStart(4, '0')}`;
}

/** An account with a funded live wallet, the live key that buys and another live key that reads. */
async function live_reseller(s: TestServer, live_ngn = 100_000) {
  const account = await s.create_account();
  const buyer = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  const reader = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, buyer: buyer.api_key, buyer_id: buyer.id, reader: reader.api_key };
}

/** Waits until the fake upstream has been asked to verify each of these meters (the request is then held). */
async function verifying(fake: FakeUpstream, meters: string[]): Promise<void> {
  await wait_for(() => meters.every((meter) => fake.calls('/api/merchant-verify').some((r) => r.body?.billersCode === meter)), 10_000, `verification of ${meters.join(', ')}`);
}

type Revoker = (s: TestServer, account: Awaited<ReturnType<typeof live_reseller>>) => Promise<{ status: number; text: string }>;
const revokers: [string, Revoker][] = [
  ['the operator revokes the key', (s, account) => s.admin('DELETE', `/admin/accounts/${account.id}/keys/${account.buyer_id}`)],
  ['the reseller revokes the key with DELETE /v1/keys/{id}', (s, account) => s.api('DELETE', `/v1/keys/${account.buyer_id}`, { key: account.reader })],
];

for (const [who, revoke] of revokers) {
  t.test(`a live purchase waiting for its verification debits nothing once ${who}`, async (t) => {
    const account = await live_reseller(server, 10_000);
    const meter = new_meter();
    const before = await balance_kobo(server, account.reader);
    upstream.hold_verifications();
    t.teardown(() => upstream.release_verifications());
    const key = idem('revoked');
    const purchase = buy(server, account.buyer, '/v1/services/electricity', electricity_body(meter, 1_000), key);
    await verifying(upstream, [meter]);
    const revoked = await revoke(server, account);
    t.equal(revoked.status, 200, `the revocation answers 200 while the purchase waits: ${revoked.text}`);
    upstream.release_verifications();
    const response = await purchase;
    check_error(t, response, 401, 'auth.key_not_found', 'the purchase whose key was revoked before its debit');
    t.equal(await balance_kobo(server, account.reader), before, 'the wallet was not debited');
    t.same(await all_orders(server, account.reader), [], 'no order was placed');
    t.equal(upstream.pays_for(meter).length, 0, 'the upstream was never asked to pay');
    const again = await buy(server, account.buyer, '/v1/services/electricity', electricity_body(meter, 1_000), key);
    check_error(t, again, 401, 'auth.key_not_found', 'the same request with the revoked key');
    // The 401 was not remembered under the idempotency key: the account's other key runs the request anew.
    const retried = await buy(server, account.reader, '/v1/services/electricity', electricity_body(meter, 1_000), key);
    t.equal(retried.status, 201, `the same idempotency key with a live key buys: ${retried.text.slice(0, 200)}`);
    t.equal(retried.headers.get('idempotent-replayed'), null, 'and is no replay');
    t.equal(upstream.pays_for(meter).length, 1, 'the upstream is paid once, for the retry');
  });

  t.test(`a bulk order waiting for its verifications places nothing once ${who}; the batch before it stays paid`, async (t) => {
    const account = await live_reseller(server, 50_000);
    const [first_phone, phone] = [new_phone(), new_phone()];
    // A batch placed before the revocation: its items are debited and stay so.
    const first = await server.api('POST', '/v1/services/bulk', {
      key: account.buyer,
      idempotency_key: idem('bulk-before'),
      body: { pin: '12345', items: [{ service_type: 'airtime', ...airtime_body(first_phone, 100, { pin: undefined }) }, { service_type: 'electricity', ...electricity_body(new_meter(), 1_000, { pin: undefined }) }] },
    });
    t.equal(first.status, 202, `the batch before the revocation is placed: ${first.text.slice(0, 300)}`);
    t.same(first.body.data.items.map((item: { status: string }) => item.status === 'refused'), [false, false], 'both of its items were placed');
    const after_first = await balance_kobo(server, account.reader);
    t.equal(after_first, 50_000_00 - kobo(100) - kobo(1_000), 'the first batch debited its two items');

    const meters = [new_meter(), new_meter(), new_meter(), new_meter()];
    upstream.hold_verifications();
    t.teardown(() => upstream.release_verifications());
    const items = [
      ...meters.map((meter) => ({ service_type: 'electricity', ...electricity_body(meter, 1_000, { pin: undefined }) })),
      { service_type: 'airtime', ...airtime_body(phone, 100, { pin: undefined }) },
    ];
    const batch_key = idem('bulk-revoked');
    const batch = server.api('POST', '/v1/services/bulk', { key: account.buyer, idempotency_key: batch_key, body: { pin: '12345', items } });
    await verifying(upstream, meters);
    const revoked = await revoke(server, account);
    t.equal(revoked.status, 200, `the revocation answers 200 while the batch waits: ${revoked.text}`);
    upstream.release_verifications();
    const response = await batch;
    check_error(t, response, 401, 'auth.key_not_found', 'the batch whose key was revoked before its items were placed');
    t.equal(await balance_kobo(server, account.reader), after_first, 'no item after the revocation was debited: only the first batch\'s items were');
    t.equal((await all_orders(server, account.reader)).length, 2, 'the only orders are the first batch\'s two');
    for (const meter of meters) t.equal(upstream.pays_for(meter).length, 0, `meter ${meter} was never paid`);
    t.equal(upstream.pays_for(phone).length, 0, 'the airtime item was never paid');
    const retried = await server.api('POST', '/v1/services/bulk', { key: account.reader, idempotency_key: batch_key, body: { pin: '12345', items } });
    t.equal(retried.status, 202, 'the same idempotency key with a live key places the batch: the 401 was not remembered');
    t.equal(retried.headers.get('idempotent-replayed'), null, 'and is no replay');
  });
}

t.test('a dashboard purchase debits nothing once its session is signed out while it waits', async (t) => {
  const account = await live_reseller(server, 10_000);
  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  t.equal(signed_in.status, 201, `signed in: ${signed_in.text.slice(0, 200)}`);
  const cookie = (signed_in.headers.get('set-cookie') ?? '').split(';')[0];
  const headers = { cookie, 'x-csrf-token': signed_in.body.data.csrf_token as string };
  const meter = new_meter();
  const before = await balance_kobo(server, account.reader);
  upstream.hold_verifications();
  t.teardown(() => upstream.release_verifications());
  const purchase = server.api('POST', '/dashboard/api/services/electricity?environment=live', { headers, idempotency_key: idem('dash'), body: electricity_body(meter, 1_000) });
  await verifying(upstream, [meter]);
  const signed_out = await server.api('DELETE', '/dashboard/api/session', { headers });
  t.equal(signed_out.status, 200, 'sign-out answers 200 while the purchase waits');
  upstream.release_verifications();
  check_error(t, await purchase, 401, 'session.required', 'the purchase whose session was signed out before its debit');
  t.equal(await balance_kobo(server, account.reader), before, 'the wallet was not debited');
  t.equal(upstream.pays_for(meter).length, 0, 'the upstream was never asked to pay');
});

t.test('in process: a changed password ends the session mid-purchase, and an expired key pays for nothing', async (t) => {
  const fake = await start_upstream(t);
  const local = await start_in_process(t, { env: fake.env(10_000) });
  await warm_up_live(local, (await live_reseller(local)).buyer);

  const account = await live_reseller(local, 10_000);
  const signed_in = await local.api('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  t.equal(signed_in.status, 201, 'signed in');
  const headers = { cookie: (signed_in.headers.get('set-cookie') ?? '').split(';')[0], 'x-csrf-token': signed_in.body.data.csrf_token as string };
  const meter = new_meter();
  fake.hold_verifications();
  t.teardown(() => fake.release_verifications());
  const purchase = local.api('POST', '/dashboard/api/services/electricity?environment=live', { headers, idempotency_key: idem('password'), body: electricity_body(meter, 1_000) });
  await verifying(fake, [meter]);
  // No route changes a password yet; the account's own command does, as one would.
  const actor = local.engine.accounts.get(account.id)!;
  local.engine.run(actor, { kind: 'set_password', password_hash: await hash_secret('another long password') });
  fake.release_verifications();
  check_error(t, await purchase, 401, 'session.required', 'the purchase whose password changed before its debit');
  t.equal(await balance_kobo(local, account.reader), 10_000_00, 'the wallet was not debited');
  check_error(t, await local.api('GET', '/dashboard/api/overview', { headers }), 401, 'session.required', 'the session is over for every later request too');

  const expiring = await local.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000, expires_at: new Date(local.clock.now_ms() + 60_000).toISOString() });
  const second_meter = new_meter();
  fake.hold_verifications();
  const late = buy(local, expiring.api_key, '/v1/services/electricity', electricity_body(second_meter, 1_000));
  await verifying(fake, [second_meter]);
  local.clock.advance(61_000);
  fake.release_verifications();
  check_error(t, await late, 401, 'auth.key_expired', 'the purchase whose key expired before its debit');
  t.equal(await balance_kobo(local, account.reader), 10_000_00, 'the wallet was still not debited');
  t.equal(fake.pays_for(second_meter).length, 0, 'the upstream was never asked to pay');
});

t.test('a live purchase made for an agent (Billvend-Account) debits nothing once the parent\'s key is revoked, or the agent suspended, while it waits', async (t) => {
  const parent = await live_reseller(server, 0);
  const opened = await server.api('POST', '/v1/agents', { key: parent.buyer, body: { name: 'Till', email: `till-${idem()}@example.ng`, phone: '08031234567', password: 'agent password 1', kyc_level: 1, pin: '54321' } });
  t.equal(opened.status, 201, `the parent opens an agent: ${opened.text}`);
  const agent = opened.body.data.id as number;
  await server.credit(agent, 'live', 10_000);
  const acting = (key: string) => ({ key, headers: { 'Billvend-Account': String(agent) } });
  const agent_balance = async () => (await server.api('GET', '/v1/wallet', acting(parent.reader))).body.data.balance;
  const cases: [string, () => Promise<{ status: number; text: string }>, number, string][] = [
    ['the agent is suspended', () => server.api('PATCH', `/v1/agents/${agent}`, { key: parent.reader, body: { status: 'suspended' } }), 403, 'account.suspended'],
    ['the parent\'s key is revoked', () => server.admin('DELETE', `/admin/accounts/${parent.id}/keys/${parent.buyer_id}`), 401, 'auth.key_not_found'],
  ];
  for (const [what, change, status, code] of cases) {
    const meter = new_meter();
    upstream.hold_verifications();
    const purchase = server.api('POST', '/v1/services/electricity', { ...acting(parent.buyer), body: electricity_body(meter, 1_000, { pin: '54321' }), idempotency_key: idem('acting') });
    await verifying(upstream, [meter]);
    const changed = await change();
    t.equal(changed.status, 200, `${what} while the purchase waits: ${changed.text}`);
    upstream.release_verifications();
    check_error(t, await purchase, status, code, `the purchase for the agent once ${what}`);
    if (code === 'account.suspended') {
      t.equal((await server.api('PATCH', `/v1/agents/${agent}`, { key: parent.reader, body: { status: 'active' } })).status, 200, 'the agent is reactivated');
    }
    t.equal(await agent_balance(), 10_000, `${what}: the agent's wallet was not debited`);
    t.equal(upstream.pays_for(meter).length, 0, `${what}: the upstream was never asked to pay`);
  }
});
