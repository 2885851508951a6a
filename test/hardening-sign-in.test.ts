// Sign-in hardening (issue "Hardening from a hostile review": "Unauthenticated sign-ins can saturate
// the CPU" and "Account enumeration and lockout"). Through real sockets against a real server that
// trusts the loopback proxy (TRUSTED_PROXIES=127.0.0.1), so that each request can claim its client
// address with X-Forwarded-For, as requests behind a load balancer do. The bounds are set small
// through their environment variables (docs/api.md "Dashboard and documentation"); no assertion depends on timing.
/// <reference path="../bench/autocannon.d.ts" />
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server, type ApiResponse, type TestServer } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';
import { sign_in_lock_ms } from '../src/dashboard/sessions.js';
import { purchase_under_sign_in_flood } from '../bench/scenarios.js';
import { run_load } from '../bench/load.js';
import { OperatorClient } from '../bench/fixtures.js';
import type { ServerProcess } from '../bench/server-process.js';

/** Addresses from the documentation ranges (RFC 5737), one per role. */
const attacker = '203.0.113.66';
const owner_address = '198.51.100.10';

function made_up_email(): string {
  return `nobody-${randomBytes(6).toString('hex')}@example.ng`;
}

function sign_in(server: TestServer, email: string, password: string, address: string): Promise<ApiResponse> {
  return server.api('POST', '/dashboard/api/session', { body: { email, password }, headers: { 'x-forwarded-for': address } });
}

/** Counts answers by "status code". */
function tally(answers: ApiResponse[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const kind = `${a.status} ${a.body?.error?.code ?? 'ok'}`;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

t.test('sign-in limits by address and email', async (t) => {
  // In this process on a manual clock: the 15-minute lock is a real one, and the test moves to its edge.
  const server = await start_in_process(t, {
    env: { TRUSTED_PROXIES: '127.0.0.1', SIGN_IN_ADDRESS_PER_MINUTE_MAX: '8', SIGN_IN_GLOBAL_PER_SECOND_MAX: '1000' },
  });
  const owner = await server.create_account();

  t.test('a burst of made-up sign-ins from one address gets 429 after the per-address limit, and another address still signs in', async (t) => {
    const burst = await Promise.all(Array.from({ length: 12 }, () => sign_in(server, made_up_email(), 'guessing', '203.0.113.1')));
    const counts = tally(burst);
    t.equal(counts.get('401 session.invalid_credentials'), 8, 'the first 8 (the per-address limit) are checked and refused with 401');
    t.equal(counts.get('429 rate_limit.exceeded'), 4, 'the other 4 get 429 rate_limit.exceeded');
    const limited = burst.find((a) => a.status === 429)!;
    t.ok(Number(limited.headers.get('retry-after')) >= 1, 'the 429 carries Retry-After in whole seconds');
    t.match(limited.body.error.message, /from this address; retry in \d+ second/, 'and says that the address sent too many');
    const other = await sign_in(server, owner.email, owner.password, '203.0.113.2');
    t.equal(other.status, 201, 'the owner signs in from another address meanwhile');
  });

  t.test('a known and an unknown email answer identically: status, code, message, headers', async (t) => {
    const address = '203.0.113.20';
    const unknown_email = made_up_email();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const known = await sign_in(server, owner.email, 'not the password', address);
      const unknown = await sign_in(server, unknown_email, 'not the password', address.replace(/20$/, '21'));
      t.equal(unknown.status, known.status, `attempt ${attempt}: same status (${known.status})`);
      t.same(unknown.body.error.code, known.body.error.code, `attempt ${attempt}: same code (${known.body.error.code})`);
      // A lock's message counts seconds, which may differ by one between two requests.
      const shape = (m: string) => m.replace(/\d+/g, 'N');
      t.equal(shape(unknown.body.error.message), shape(known.body.error.message), `attempt ${attempt}: same message`);
      const names = (a: ApiResponse) => [...a.headers.keys()].filter((h) => !['date', 'x-request-id', 'content-length'].includes(h)).sort();
      t.same(names(unknown), names(known), `attempt ${attempt}: same headers`);
      t.notOk(known.headers.has('set-cookie') || unknown.headers.has('set-cookie'), `attempt ${attempt}: no cookie for either`);
      if (attempt < 5) t.equal(known.body.error.code, 'session.invalid_credentials', `attempt ${attempt}: 401 session.invalid_credentials for both`);
      else t.equal(known.body.error.code, 'session.locked', 'the fifth wrong password locks both, known and unknown, for that address (429 session.locked)');
    }
  });

  t.test('wrong passwords from an attacker\'s address do not lock the owner out from another address', async (t) => {
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 5; i++) answers.push(await sign_in(server, owner.email, `wrong-${i}`, attacker));
    t.same(answers.map((a) => a.status), [401, 401, 401, 401, 429], 'four 401s, then the fifth wrong password locks this address out');
    t.equal(answers[4].body.error.code, 'session.locked', 'with the spec\'s session.locked');
    t.ok(Number(answers[4].headers.get('retry-after')) >= 1, 'and Retry-After');
    const attacker_right = await sign_in(server, owner.email, owner.password, attacker);
    t.equal(attacker_right.body.error?.code, 'session.locked', 'from the attacker\'s address even the right password is refused while locked');
    const from_owner = await sign_in(server, owner.email, owner.password, owner_address);
    t.equal(from_owner.status, 201, 'the owner signs in from their own address');
    t.match(from_owner.headers.get('set-cookie') ?? '', /^bv_session=/, 'and gets a session');
    t.equal(answers[4].headers.get('retry-after'), String(sign_in_lock_ms / 1000), 'the lock is the whole 15 minutes');
    // The clock has not moved since the fifth wrong password: its lock ends exactly 15 minutes from now.
    server.clock.advance(sign_in_lock_ms - 1);
    const last_moment = await sign_in(server, owner.email, owner.password, attacker);
    t.equal(last_moment.body.error?.code, 'session.locked', 'one millisecond before the 15 minutes are over the address is still locked');
    t.equal(last_moment.headers.get('retry-after'), '1', 'with Retry-After rounded up to one second');
    server.clock.advance(1);
    const after_lock = await sign_in(server, owner.email, owner.password, attacker);
    t.equal(after_lock.status, 201, 'once the lock\'s time is over, the right password signs in from that address too');
  });
});

t.test('the hashing queues are bounded', async (t) => {
  // One scrypt at a time and one waiting, for sign-ins and for PINs alike; the rate limits out of the way.
  const server = await start_server(t, {
    env: {
      TRUSTED_PROXIES: '127.0.0.1',
      SIGN_IN_ADDRESS_PER_MINUTE_MAX: '1000',
      SIGN_IN_GLOBAL_PER_SECOND_MAX: '1000',
      SIGN_IN_HASH_RUNNING_MAX: '1',
      SIGN_IN_HASH_WAITING_MAX: '1',
      PIN_HASH_RUNNING_MAX: '1',
      PIN_HASH_WAITING_MAX: '1',
    },
  });

  t.test('the sign-in hashing queue full answers 429 rather than queueing unboundedly', async (t) => {
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => sign_in(server, made_up_email(), 'guessing', `198.51.100.${100 + i}`)));
    const counts = tally(burst);
    const busy = burst.filter((a) => a.status === 429);
    t.ok(busy.length > 0, `some sign-ins find the queue full (${[...counts].map(([k, n]) => `${n} × ${k}`).join(', ')})`);
    t.ok(busy.every((a) => a.body.error.code === 'rate_limit.exceeded' && /being checked/.test(a.body.error.message)), 'each answered 429 rate_limit.exceeded, the queue being full');
    t.ok(busy.every((a) => a.headers.get('retry-after') === '1'), 'with Retry-After: 1');
    t.equal(counts.get('401 session.invalid_credentials') ?? 0, 40 - busy.length, 'the rest were checked and refused with 401');
    t.ok(busy.length + 2 <= 40, 'at least the running and the waiting check were served');
  });

  t.test('a sign-in flood does not starve PIN checks, and a full PIN queue answers 429 that is not a wrong PIN', async (t) => {
    // One at a time: the operator's account creation hashes in the same lanes (1 running, 1 waiting here),
    // and answers 429 when they are full, as anyone's request would (docs/decisions.md).
    const resellers: Awaited<ReturnType<typeof server.reseller>>[] = [];
    for (let i = 0; i < 12; i++) resellers.push(await server.reseller(10_000));
    const buy = (r: { key: string }, key: string) => server.api('POST', '/v1/services/airtime', {
      key: r.key,
      idempotency_key: key,
      body: { network: 'mtn', phone: '08011111111', amount: 100, pin: '12345' },
    });
    // The first purchase of each account checks its PIN with scrypt; the sign-in lane is kept full.
    const flood = Promise.all(Array.from({ length: 40 }, (_, i) => sign_in(server, made_up_email(), 'guessing', `198.51.100.${150 + i}`)));
    const first = await buy(resellers[0], 'first-0');
    const flooded = tally(await flood);
    t.ok((flooded.get('429 rate_limit.exceeded') ?? 0) > 0, 'the sign-in lane was full meanwhile');
    t.equal(first.status, 201, 'a purchase whose PIN needs scrypt goes through: PIN checks have a lane of their own');

    const burst = await Promise.all(resellers.slice(1).map((r, i) => buy(r, `burst-${i}`)));
    const busy = burst.filter((a) => a.status === 429);
    t.ok(busy.length > 0, `some of 11 first purchases at once find the PIN queue full (${[...tally(burst)].map(([k, n]) => `${n} × ${k}`).join(', ')})`);
    t.ok(busy.every((a) => a.body.error.code === 'rate_limit.exceeded' && a.headers.get('retry-after') === '1'), 'answered 429 rate_limit.exceeded with Retry-After: 1');
    t.ok(burst.every((a) => a.status === 201 || a.status === 429), 'the others were bought');
    // Retried one at a time, the refused ones go through: the 429 was neither a wrong PIN nor remembered.
    for (const [i, r] of resellers.slice(1).entries()) {
      if (burst[i].status !== 429) continue;
      const again = await buy(r, `burst-${i}`);
      t.equal(again.status, 201, `account ${i + 2}: the retry with the same idempotency key is bought`);
      const wallet = await server.api('GET', '/v1/wallet?environment=test', { key: r.key });
      t.equal(wallet.body.data.balance, 10_000 - 100, `account ${i + 2}: debited once`);
    }
  });
});

t.test('the bench scenario purchase-under-sign-in-flood runs at a tiny size', async (t) => {
  const scenario = purchase_under_sign_in_flood(() => ({ rate_per_s: 40, connections: 4, addresses: 1000, requests_max: 200, duration_max_ms: 20_000 }));
  const server = await start_server(t, { env: scenario.env });
  const notes: string[] = [];
  const context = {
    server: { base_url: server.base } as ServerProcess,
    operator: new OperatorClient(server.admin_base, server.admin_token),
    accounts_count: 1,
    random: Math.random,
    log: () => {},
    warn: (line: string) => notes.push(`warning: ${line}`),
  };
  const requests = await scenario.prepare(context);
  const result = await run_load(server.base, requests, { connections: 4, pipelining: 1, duration_s: 2, warmup_s: 0, timeout_s: 10 }, () => null);
  notes.push(...await scenario.finish!(context, 0));
  t.equal(notes.filter((n) => n.startsWith('warning')).length, 0, `no warnings (${notes.join(' | ')})`);
  t.ok((result.status_counts['201'] ?? 0) > 0, `purchases were bought under the flood (${JSON.stringify(result.status_counts)})`);
  t.equal(result.errors, 0, 'without connection errors');
  t.match(notes.join('\n'), /sign-ins during the run: \d+ answered 429, \d+ answered 401/, 'the scenario reports the sign-ins answered 429 and 401');
  t.ok(!/, \d+ other/.test(notes.join('\n')), 'and no other answers');
});
