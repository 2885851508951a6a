// How many commands one purchase runs (issue 31, ARCHITECTURE.md "One purchase, walked"): an in-process
// server, a warm account with its PIN verdict cached, one keyed sandbox airtime purchase, and every
// Engine.run / Engine.run_across counted by kind. A correct PIN with no failed attempt to reset changes
// nothing, so no pin_verdict command runs for it (one after a wrong PIN does: it resets the count). The
// events' records (feed entries) are staged in the group of the command that emitted them, so no
// `stage_records` command runs for them.
import t from 'tap';
import { start_in_process } from './helpers/in-process.js';
import { Engine } from '../src/engine/engine.js';

t.setTimeout(60_000);

/** The PIN with its last digit changed: well formed, and wrong. */
function wrong_pin(pin: string): string {
  return pin.slice(0, -1) + (pin.endsWith('0') ? '1' : '0');
}

/** Counts every command run while `during` runs, by kind (an agent's order counted as its inner command). */
async function commands_of(during: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const run = Engine.prototype.run;
  const run_across = Engine.prototype.run_across;
  Engine.prototype.run = function (this: Engine, actor, command, ...rest) {
    seen.push(command.kind);
    return run.call(this, actor, command, ...rest);
  } as typeof run;
  Engine.prototype.run_across = function (this: Engine, actors, command, ...rest) {
    seen.push(`across:${command.kind}`);
    return run_across.call(this, actors, command, ...rest);
  } as typeof run_across;
  try {
    await during();
  } finally {
    Engine.prototype.run = run;
    Engine.prototype.run_across = run_across;
  }
  return seen;
}

t.test('a keyed sandbox purchase runs three commands, none for a PIN with nothing to reset nor to stage its events', async (t) => {
  const server = await start_in_process(t);
  const reseller = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
  const buy = (n: number) => server.api('POST', '/v1/services/airtime', {
    key: reseller.key, idempotency_key: `commands-${n}`, body: { network: 'mtn', phone: '08011111111', amount: 100, pin: reseller.pin },
  });
  const first = await buy(1); // warms the account and its PIN verdict
  t.equal(first.status, 201, 'the first purchase is delivered');
  let second: Awaited<ReturnType<typeof buy>> | null = null;
  const kinds = await commands_of(async () => {
    second = await buy(2);
  });
  t.equal(second!.status, 201, 'the counted purchase is delivered');
  t.same(kinds, ['purchase_now'], 'one command: the debit, the provider\'s answer and the remembered answer');
  t.notOk(kinds.includes('stage_records'), 'its events (wallet.debited, transaction.completed) run no command of their own');

  const feed = await server.api('GET', '/v1/events?limit=100', { key: reseller.key });
  t.equal(feed.status, 200, 'the feed is read');
  const reference = (second!.body as { data: { reference: string } }).data.reference;
  const events = (feed.body as { data: { events: { event: string; data: { reference?: string } }[] } }).data.events
    .filter((e) => e.data.reference === reference).map((e) => e.event);
  t.same(events, ['wallet.debited', 'transaction.completed'], 'both of its events are in the feed');

  // A wrong PIN is counted by a command; the next correct one resets the count, by a command too.
  const wrong = await server.api('POST', '/v1/services/airtime', {
    key: reseller.key, idempotency_key: 'commands-wrong', body: { network: 'mtn', phone: '08011111111', amount: 100, pin: wrong_pin(reseller.pin) },
  });
  t.equal(wrong.body.error?.code, 'pin.incorrect', 'a wrong PIN is refused');
  const after_wrong = await commands_of(() => buy(3));
  t.same(after_wrong, ['pin_verdict', 'purchase_now'], 'the correct PIN after a wrong one resets the count in a pin_verdict command');
  const again = await commands_of(() => buy(4));
  t.same(again, ['purchase_now'], 'and the next purchase has nothing to reset');
});
