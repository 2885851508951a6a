// A journal that refused a batch fences its engine (src/engine/engine.ts, Engine.fence). In cluster
// mode a batch is refused when its append fails (the node lost its lease or its stream). The cluster
// crash campaign found the dispatcher acting on such batches: once the refused batches' deliveries no
// longer awaited their commit, a sweep brought them back from the store (a leader then wrote each batch
// before the stream acknowledged it) and sent them, announcing changes the next leader did not have and
// then made again under new event ids (docs/cluster.md "A deposed leader's local tail"). A leader now
// writes a batch only once the stream took it, and the fence keeps what the accounts still hold in
// memory from being acted on.
//
// In process, on a manual clock: the test plays the cluster's appender (the journal's JournalAppender
// hook) and refuses an append, then runs the webhook sweep's schedule past its period.
import t from 'tap';
import { start_in_process } from './helpers/in-process.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { idem, warm_up_live } from './helpers/purchases.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { bulk_sends_in_flight_max } from '../src/services/bulk-send-lane.js';
import { sweep_interval_ms } from '../src/webhooks/delivery-bounds.js';
import type { JournalAppender, StagedChange } from '../src/journal/journal.js';

/** An appender whose appends wait until the test acknowledges or refuses them, as a stream would. */
class HeldAppender implements JournalAppender {
  readonly held: { changes: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private refused: Error | null = null;

  append(changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> } {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const appended = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    appended.catch(() => {});
    // The journal's contract: once an append failed, every later one fails too.
    if (this.refused !== null) reject(this.refused);
    else this.held.push({ changes: changes.length, resolve, reject });
    return { changes: [], appended };
  }

  refuse_all(error: Error): void {
    this.refused = error;
    for (const each of this.held.splice(0)) each.reject(error);
  }
}

async function until(what: string, check: () => boolean, limit_ms = 10_000): Promise<void> {
  const deadline = Date.now() + limit_ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${limit_ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

t.test('a refused append fences the engine: nothing it staged is announced or written', async (t) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_in_process(t, { env: webhook_env() });
  const reseller = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  const created = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: receiver.url, events: ['wallet.credited'] } });
  t.equal(created.status, 201, 'the endpoint is registered');
  receiver.secret = created.body.data.secret;

  const appender = new HeldAppender();
  server.engine.journal.appender = appender;
  const replicated = server.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: 'REPLICATED-1' }, idempotency_key: idem('replicated') });
  await until('the first top-up\'s append', () => appender.held.length === 1);
  appender.held.shift()!.resolve();
  t.equal((await replicated).status, 201, 'a top-up whose append is acknowledged is answered 201');
  await receiver.wait_for(1);
  t.same(receiver.events('wallet.credited').map((r) => r.json.data.reference), ['REPLICATED-1'], 'and its event is delivered: webhooks flow');

  // The delivery's own bookkeeping (its queue key removed) is a batch of its own: acknowledged too, until none comes.
  for (let quiet = 0; quiet < 10; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (appender.held.length === 0) quiet++;
    else for (const each of appender.held.splice(0)) each.resolve(), (quiet = 0);
  }
  const queued_before = [...server.engine.store.delivery_queue.getKeys()].length;

  const stranded = server.api('POST', '/v1/sandbox/wallet/fund', { key: reseller.key, body: { amount: 100, reference: 'STRANDED-1' }, idempotency_key: idem('stranded') });
  await until('the second top-up\'s append', () => appender.held.length === 1);
  const queued = [...server.engine.store.delivery_queue.getKeys()].length;
  t.equal(queued, queued_before, 'the top-up\'s delivery is not in the local store before its append is acknowledged (written once the stream took it)');
  t.notOk(server.engine.fenced, 'not fenced while the append is pending');

  appender.refuse_all(new Error('another leader appended to the stream'));
  const answer = await stranded;
  t.not(answer.status, 201, `the top-up whose append was refused is not acknowledged (${answer.status} ${answer.body?.error?.code})`);
  t.ok(server.engine.fenced, 'the refusal fenced the engine');
  t.equal([...server.engine.store.delivery_queue.getKeys()].length, queued_before, 'nothing of it was written to the local store');

  // The webhook sweep runs every sweep_interval_ms and reads the store's delivery queue; a fenced
  // engine's wheel runs nothing.
  server.clock.advance(2 * sweep_interval_ms);
  // Nothing in the fenced process can serve as a barrier (it takes no write any more): an attempt,
  // signed on the worker pool and posted on loopback, takes milliseconds; a second is allowed.
  const more = await receiver.wait_for(2, 1_000).catch(() => null);
  t.equal(more, null, 'no second event arrives');
  t.same(receiver.events('wallet.credited').map((r) => r.json.data.reference), ['REPLICATED-1'], 'the stranded top-up was never announced');
});

t.test('a refused append fences the order desk too: a bulk item still in its send lane is never paid', async (t) => {
  // Found by the cluster crash campaign (2026-11-28, seed 1128116, round 42): a leader deposed by a NATS
  // server's death paid VTpass for live orders the stream never took ("the upstream was paid under request_id …,
  // which no stored live order carries"). A bulk order's items wait in their account's send lane; once the
  // batch that placed them was refused, the actor no longer waited on it (settled() null), and the lane sent
  // the next item when a slot freed: the upstream was paid for an order that existed only in the local tail.
  const vtpass = await start_upstream(t);
  const server = await start_in_process(t, { env: vtpass.env(1_000) });
  const created = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 100_000);
  await warm_up_live(server, key);

  const appender = new HeldAppender();
  server.engine.journal.appender = appender;
  const items = Array.from({ length: bulk_sends_in_flight_max + 2 }, (_, i) => ({ service_type: 'airtime', network: 'mtn', phone: `0806550${String(i).padStart(4, '0')}`, amount: 100 }));
  const placed = server.api('POST', '/v1/services/bulk', { key, body: { pin: '12345', items }, idempotency_key: idem('fenced-bulk') });
  await until('the bulk order\'s append', () => appender.held.length >= 1);
  t.equal(vtpass.calls('/api/pay').length, 0, 'nothing is paid while the placement\'s append is pending');

  appender.refuse_all(new Error('this node lost the cluster\'s lease'));
  const answer = await placed;
  t.not(answer.status, 201, `the bulk order whose append was refused is not acknowledged (${answer.status} ${answer.body?.error?.code})`);
  t.ok(server.engine.fenced, 'the refusal fenced the engine');
  // The lane's slots free as the first items' sends give up; the items after them would be sent then. Nothing
  // in the fenced process can serve as a barrier: its next turns are given time to run.
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(vtpass.calls('/api/pay').length, 0, 'no item of the refused placement was paid (the code before the fix paid 2, the items after the lane\'s first 8): the upstream never hears of an order the cluster does not have');
});
