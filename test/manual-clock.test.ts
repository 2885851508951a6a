// The clock and the random source are passed in from start() (src/main.ts StartOptions): a server run
// in this process on a ManualClock does nothing time-based until the test advances the clock, and then
// does it at once, so the 30 s sandbox delay, its re-query and a key's one-minute rate window are
// tested here at their real lengths without one sleep. A seeded random source makes the draws repeat.
import t from 'tap';

t.setTimeout(120_000);
import { start_in_process } from './helpers/in-process.js';
import { all_orders, buy_airtime, fast_reseller, order, sandbox, balance_kobo, kobo } from './helpers/purchases.js';
import type { InProcessServer } from './helpers/in-process.js';
import type { ApiResponse } from './helpers/server.js';
import { SeededRandom } from '../src/lib/random.js';
import { purchase_wait_ms } from '../src/services/order-answers.js';

const second = 1000;
/** The sandbox's delay for its delayed numbers (src/services/sandbox-provider.ts sandbox_delay_ms). */
const sandbox_delay_ms = 30 * second;
/** Past one timer-wheel tick (4 ms), so that what is due at an instant has fired. */
const tick_margin_ms = 8;
/** Reads of the order list while a purchase is being placed; each is a round trip, no sleep. */
const placing_reads_max = 2_000;

/**
 * A purchase the sandbox answers later: the server holds the request up to 5 s (purchase_wait_ms) for
 * an answer, on its clock. Once the order is on record the test moves the clock past that wait, and the
 * request is answered with the order processing. The order was placed at the clock's time before the move.
 */
async function delayed_purchase(server: InProcessServer, key: string, phone: string, amount: number): Promise<{ placed: ApiResponse; waited_ms: number }> {
  const pending = buy_airtime(server, key, phone, amount);
  const count_before = (await all_orders(server, key)).length;
  let reads = 0;
  while ((await all_orders(server, key)).length === count_before) {
    if (++reads > placing_reads_max) throw new Error(`the order was not placed after ${placing_reads_max} reads`);
  }
  const waited_ms = purchase_wait_ms * server.clock.time_scale + tick_margin_ms;
  server.clock.advance(waited_ms);
  return { placed: await pending, waited_ms };
}

t.test('a delayed sandbox purchase stays processing until the manual clock passes 30 s, then is delivered without a sleep', async (t) => {
  const server = await start_in_process(t);
  const reseller = await fast_reseller(server);
  const { placed, waited_ms } = await delayed_purchase(server, reseller.key, sandbox.delayed_delivered, 100);
  t.equal(placed.status, 201, `the purchase is answered (201, processing) after the server's wait (${placed.text})`);
  t.equal(placed.body.data.status, 'processing', 'the answer says processing');
  const reference: string = placed.body.data.reference;
  server.clock.advance(sandbox_delay_ms - second - waited_ms);
  t.equal((await order(server, reseller.key, reference)).status, 'processing', 'one second before the sandbox answers, the order is still processing');
  server.clock.advance(second + tick_margin_ms);
  t.equal((await order(server, reseller.key, reference)).status, 'delivered', 'once the clock passes 30 s the answer has arrived and the order is delivered');
});

t.test('a delayed sandbox failure is refunded once the manual clock passes 30 s, at TIME_SCALE 1', async (t) => {
  const server = await start_in_process(t);
  const reseller = await fast_reseller(server);
  const before = await balance_kobo(server, reseller.key);
  const { placed, waited_ms } = await delayed_purchase(server, reseller.key, sandbox.delayed_failed, 250);
  t.equal(placed.status, 201, `the purchase is answered (201, processing) after the server's wait (${placed.text})`);
  t.equal(await balance_kobo(server, reseller.key), before - kobo(250), 'the wallet is debited while the order is processing');
  server.clock.advance(sandbox_delay_ms - waited_ms + tick_margin_ms);
  const settled = await order(server, reseller.key, placed.body.data.reference);
  t.equal(settled.status, 'failed', 'the sandbox\'s failure arrived when the clock passed 30 s');
  t.equal(await balance_kobo(server, reseller.key), before, 'and the debit was reversed in full');
});

t.test('the injected clock scales the spec\'s durations: at TIME_SCALE 0.001 the 30 s sandbox delay is 30 ms of the clock', async (t) => {
  const server = await start_in_process(t, { time_scale: 0.001 });
  const reseller = await fast_reseller(server);
  const { placed, waited_ms } = await delayed_purchase(server, reseller.key, sandbox.delayed_delivered, 100);
  t.equal(placed.status, 201, `the purchase is answered (201, processing) after the server's wait of 5 ms (${placed.text})`);
  server.clock.advance(20 - waited_ms);
  t.equal((await order(server, reseller.key, placed.body.data.reference)).status, 'processing', 'after 20 ms of the clock it is still processing');
  server.clock.advance(10 + tick_margin_ms);
  t.equal((await order(server, reseller.key, placed.body.data.reference)).status, 'delivered', 'after 30 ms of the clock it is delivered');
});

t.test('a key\'s one-minute rate window opens again when the manual clock passes the minute, and not before', async (t) => {
  // Rate windows are fixed wall-clock minutes that do not scale with TIME_SCALE (docs/decisions.md):
  // at 0.001 a minute is still a minute.
  const server = await start_in_process(t, { time_scale: 0.001 });
  const reseller = await server.reseller(1_000, {}, { rate_limit_per_minute: 2 });
  for (let i = 1; i <= 2; i++) t.equal((await server.api('GET', '/v1/wallet', { key: reseller.key })).status, 200, `request ${i} of 2 in the window is served`);
  const refused = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(refused.status, 429, 'the third request in the minute is refused');
  t.equal(refused.body?.error?.code, 'rate_limit.exceeded', 'with rate_limit.exceeded');
  server.clock.advance(59 * second);
  t.equal((await server.api('GET', '/v1/wallet', { key: reseller.key })).status, 429, 'after 59 s of the clock the window is still closed');
  server.clock.advance(second);
  t.equal((await server.api('GET', '/v1/wallet', { key: reseller.key })).status, 200, 'after 60 s of the clock a new window has opened');
});

t.test('two servers given the same seeded random source draw the same API keys', async (t) => {
  const keys: string[] = [];
  for (let run = 0; run < 2; run++) {
    const server = await start_in_process(t, { random: new SeededRandom(20) });
    const account = await server.create_account({ email: 'seeded@example.ng' });
    keys.push((await server.create_key(account.id)).api_key);
  }
  t.match(keys[0], /^bv_test_[0-9A-Za-z]{40}$/, 'the key has the usual shape');
  t.equal(keys[1], keys[0], 'the second server drew the same key: ids come from the source start() was given');
});
