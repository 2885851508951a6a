// The front end's one durability gate (HttpFront.send_durable, front/durable-reply.ts): a reply leaves only once
// what the request's account staged is durable, and a route that acts on another account waits for that one's
// commit too; a read that reports nothing of the account (the catalog, a phone look-up) does not wait. The test
// holds an account's commit open in memory (its actor's pending promise, as the journal's durable() would be
// while a flush runs) and looks at which answers leave before it is released.
import t from 'tap';
import { start_in_process } from './helpers/in-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An in-process server with one account and a test key, nothing of it waiting for a commit. */
async function account_at_rest(t: Parameters<typeof start_in_process>[0]) {
  const server = await start_in_process(t);
  const account = await server.create_account();
  const key = await server.create_key(account.id, { environment: 'test' });
  const actor = server.engine.accounts.get(account.id)!;
  await actor.settled();
  return { server, account, key, actor };
}

/** Every commit from here takes `ms` longer to reach LMDB, as a slow disk's would. */
function slow_commits(t: Parameters<typeof start_in_process>[0], server: Awaited<ReturnType<typeof start_in_process>>, ms: number): void {
  const journal = server.engine.journal as any;
  const write = journal.write.bind(journal);
  journal.write = (...args: unknown[]) => setTimeout(() => write(...args), ms);
  t.teardown(() => {
    journal.write = write;
  });
}

t.test('replies wait for a commit of what they report, and only those', async (t) => {
  const { server, account, key, actor } = await account_at_rest(t);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  (actor as any).pending = held;
  const answered = new Map<string, number>();
  const ask = (name: string, request: Promise<{ status: number }>) => request.then((r) => {
    answered.set(name, r.status);
    return r;
  });
  const wallet = ask('wallet', server.api('GET', '/v1/wallet', { key: key.api_key }));
  const keys = ask('keys', server.api('GET', '/v1/keys', { key: key.api_key }));
  const operator = ask('operator', server.admin('GET', `/admin/accounts/${account.id}`));
  const discos = ask('discos', server.api('GET', '/v1/services/electricity/discos', { key: key.api_key }));
  const lookup = ask('lookup', server.api('GET', '/v1/lookup/phone/08031234567', { key: key.api_key }));
  await Promise.all([discos, lookup]);
  await sleep(300);
  t.same([...answered.keys()].sort(), ['discos', 'lookup'], 'while the commit is held, only the catalog and the look-up answered');
  t.equal(answered.get('discos'), 200, 'the catalog answered 200');
  t.equal(answered.get('lookup'), 200, 'the look-up answered 200');

  release();
  (actor as any).pending = null;
  const [w, k, o] = await Promise.all([wallet, keys, operator]);
  t.same([w.status, k.status, o.status], [200, 200, 200], 'once it is durable, the wallet, the key list and the operator\'s view of the account answer 200');
});

t.test('a repeat of a keyed request that arrives while the first one\'s commit is in flight replays it, and is not run again', async (t) => {
  // Found by the single-node crash campaign of 2026-11-29 (seed 9301) on the first version of the gate: flights ended
  // with the answer, before its commit, and a twin copy sent meanwhile found neither the flight nor the record (read
  // from the store) and created a second key, batch or order.
  const { server, key, actor } = await account_at_rest(t);
  slow_commits(t, server, 400);
  const create = () => server.api('POST', '/v1/keys', { key: key.api_key, body: { name: 'twin', environment: 'test' }, idempotency_key: 'twin-key-1' });
  const first = create();
  await sleep(150);
  const second = create();
  const [a, b] = await Promise.all([first, second]);
  t.equal(a.status, 201, 'the first copy creates the key');
  t.equal(b.status, 201, 'the second answers 201 too');
  t.equal(b.headers.get('idempotent-replayed'), 'true', 'as a replay');
  t.equal(b.body?.data?.id, a.body?.data?.id, 'of the same key');
  t.equal(actor.active_keys().filter((k) => k.record.name === 'twin').length, 1, 'one key named twin exists');
});

t.test('a keyed reply held until its own commit is durable is not held again for a later commit of its account', async (t) => {
  // The bench of 2026-11-29 found it: a keyed request's flight waits for its commit, and when the flight handed the
  // answer to the gate only then, the gate waited for the account's pending commit again, which on a busy account is
  // always another request's, one group commit later (purchase-with-webhooks: 7,276 -> 6,709 purchases/s, p50 13 ->
  // 14 ms). The flight now stands beside the answer (front/idempotent-run.ts track).
  const { server, key, actor } = await account_at_rest(t);
  slow_commits(t, server, 400);
  const create = (name: string) => server.api('POST', '/v1/keys', { key: key.api_key, body: { name, environment: 'test' }, idempotency_key: `${name}-1` });
  let second_answered = false;
  let pending_when_first_answered: unknown = 'not answered';
  const first = create('first').then((r) => {
    pending_when_first_answered = actor.settled();
    return r;
  });
  await sleep(250);
  const second = create('second').then((r) => {
    second_answered = true;
    return r;
  });
  const a = await first;
  const second_before_first = second_answered;
  t.equal(a.status, 201, 'the first key is created');
  t.not(pending_when_first_answered, null, 'the first answer left while the second request\'s commit was still in flight');
  t.notOk(second_before_first, 'and before the second answer');
  t.equal((await second).status, 201, 'the second key is created once its own commit is durable');
});
