// A refused append must not pay the upstream for a bulk order's items (found by the cluster crash campaign
// with partitions, test/crash/README.md "Partitions": "the upstream was paid under request_id …, which no stored
// live order carries"). In cluster mode a leader writes each batch to its own store before the stream
// acknowledges it; when the append is refused, the engine reloads the accounts the batch touched from that
// store, which still holds the refused batch. The send lane (src/services/order-desk.ts) sends a bulk order's
// items past the eighth as earlier ones free their slots, from the account as it is then.
//
// In process: the test plays the cluster's appender (the journal's JournalAppender hook), holds the append of a
// live bulk order of 10 items, refuses it, and counts what the fake VTpass was asked to pay.
import t from 'tap';
import { start_in_process } from './helpers/in-process.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { idem, warm_up_live } from './helpers/purchases.js';
import type { JournalAppender, StagedChange } from '../src/journal/journal.js';

/** An appender whose appends wait until the test acknowledges or refuses them, as a stream would. */
class HeldAppender implements JournalAppender {
  readonly held: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private refused: Error | null = null;

  append(_changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> } {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const appended = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    appended.catch(() => {});
    // The journal's contract: once an append failed, every later one fails too.
    if (this.refused !== null) reject(this.refused);
    else this.held.push({ resolve, reject });
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

t.test('a bulk order whose append is refused pays the upstream for none of its items', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_in_process(t, { env: upstream.env(1_000) });
  const created = await server.create_account({ kyc_level: 3 });
  const key = (await server.create_key(created.id, { environment: 'live', rate_limit_per_minute: 1_000_000 })).api_key;
  await server.credit(created.id, 'live', 100_000);
  await warm_up_live(server, key);
  const pays_before = upstream.calls('/api/pay').length;

  const appender = new HeldAppender();
  server.engine.journal.appender = appender;
  // Ten items: the lane sends eight at once once the placement is durable, the last two as slots free up.
  const phones = Array.from({ length: 10 }, (_, i) => `0806300${String(i).padStart(4, '0')}`);
  const items = phones.map((phone, i) => ({ service_type: 'airtime', network: 'mtn', phone, amount: 100, client_reference: `fence-lane-${i}` }));
  const placed = server.api('POST', '/v1/services/bulk', { key, body: { pin: created.pin, items }, idempotency_key: idem('fence-lane') });
  await until('the placement\'s append', () => appender.held.length >= 1);
  appender.refuse_all(new Error('another leader appended to the stream'));
  const answer = await placed;
  t.not(answer.status, 202, `the bulk order whose append was refused is not acknowledged (${answer.status} ${answer.body?.error?.code})`);
  t.ok(server.engine.fenced, 'the refusal fenced the engine');
  // Whatever the lane still does runs on loopback within milliseconds; give it a generous while.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const paid = upstream.calls('/api/pay').slice(pays_before).map((call) => call.body?.billersCode);
  t.same(paid, [], `the upstream was asked to pay for none of the items (asked for ${paid.length}: ${paid.join(', ')})`);
});
