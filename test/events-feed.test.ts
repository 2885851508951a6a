// GET /v1/events (docs/api.md "Events feed"): every event of the key's environment, subscribed or not,
// in the order it happened, as the webhook payload with the same id; a cursor (after) that holds across
// pages and across a restart; limit and type; an unknown after is 400.
import t, { type Test } from 'tap';
import { start_server, temp_dir } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { buy_airtime, check_error, sandbox } from './helpers/purchases.js';

const data_dir = temp_dir();
const server = await start_server(t, { data_dir, env: webhook_env({ TIME_SCALE: '0.001', LOG_LEVEL: 'warn' }) });

interface FeedEvent { event: string; id: string; created_at: string; data: Record<string, any> }

async function feed(key: string, query = ''): Promise<{ events: FeedEvent[]; has_more: boolean; next_after: string | null; text: string }> {
  const response = await server.api('GET', `/v1/events${query === '' ? '' : '?' + query}`, { key });
  if (response.status !== 200) throw new Error(`GET /v1/events?${query} answered ${response.status} ${response.text}`);
  return { ...response.body.data, text: response.text };
}

/** Every event after the cursor, page by page. */
async function all_events(key: string, page_size: number, after: string | null = null): Promise<FeedEvent[]> {
  const out: FeedEvent[] = [];
  for (let cursor = after; ;) {
    const page = await feed(key, `limit=${page_size}${cursor === null ? '' : `&after=${cursor}`}`);
    out.push(...page.events);
    if (!page.has_more) return out;
    cursor = page.next_after;
  }
}

const account = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });
const other = await server.reseller(10_000, {}, { rate_limit_per_minute: 1_000_000 });

t.test('every event is in the feed in the order it happened, with no endpoint subscribed', async (t) => {
  await buy_airtime(server, account.key, '08031234567', 100);
  await buy_airtime(server, account.key, sandbox.failed, 200);
  const events = await all_events(account.key, 100);
  t.same(events.map((e) => e.event), [
    'wallet.credited',
    'wallet.debited', 'transaction.completed',
    'wallet.debited', 'transaction.failed', 'wallet.reversed',
  ], 'the funding, the delivered purchase and the failed one with its refund, in order');
  t.ok(events.every((e) => /^evt_[0-9A-Za-z]{24}$/.test(e.id)), 'each id is evt_ and 24 base62 characters');
  t.equal(new Set(events.map((e) => e.id)).size, events.length, 'ids are unique');
  for (let i = 1; i < events.length; i++) t.ok(events[i].created_at >= events[i - 1].created_at, `event ${i + 1} is not older than event ${i}`);
  t.equal(events[1].data.amount, 100, 'the debit carries its amount');
  const others = await all_events(other.key, 100);
  t.same(others.map((e) => e.event), ['wallet.credited'], 'another account sees only its own event');
});

t.test('the cursor pages through the feed: limit, after (exclusive) and has_more', async (t) => {
  const everything = await all_events(account.key, 100);
  const first = await feed(account.key, 'limit=2');
  t.same(first.events.map((e) => e.id), everything.slice(0, 2).map((e) => e.id), 'the first page holds the two oldest events');
  t.equal(first.has_more, true, 'and says more follow');
  t.equal(first.next_after, everything[1].id, 'next_after is the last event of the page');
  const second = await feed(account.key, `limit=2&after=${first.next_after}`);
  t.same(second.events.map((e) => e.id), everything.slice(2, 4).map((e) => e.id), 'after is exclusive: the next two follow');
  const paged = await all_events(account.key, 1);
  t.same(paged.map((e) => e.id), everything.map((e) => e.id), 'one at a time gives the same events in the same order');
  const last = await feed(account.key, `after=${everything[everything.length - 1].id}`);
  t.same(last.events, [], 'after the newest event there is nothing yet');
  t.equal(last.has_more, false, 'and no more');
  const defaults = await feed(account.key);
  t.same(defaults.events.map((e) => e.id), everything.slice(0, 20).map((e) => e.id), 'without limit, up to 20 from the oldest');
});

t.test('type keeps one kind of event and next_after moves past the others', async (t) => {
  const debits = await feed(account.key, 'type=wallet.debited');
  t.ok(debits.events.length >= 2, 'the debits are there');
  t.ok(debits.events.every((e) => e.event === 'wallet.debited'), 'and only debits');
  const paged = await all_events(account.key, 1).then((all) => all.filter((e) => e.event === 'wallet.debited'));
  t.same(debits.events.map((e) => e.id), paged.map((e) => e.id), 'the same debits as the whole feed holds');
  const reversal = await feed(account.key, `type=wallet.reversed&after=${debits.events[0].id}`);
  t.equal(reversal.events.length, 1, 'one reversal after the first debit');
});

t.test('the feed holds the payload and id that a webhook endpoint receives, byte for byte', async (t: Test) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const created = await server.api('POST', '/v1/webhooks', { key: account.key, body: { url: receiver.url, events: ['transaction.completed'] } });
  t.equal(created.status, 201, `the endpoint is registered: ${created.text}`);
  receiver.secret = created.body.data.secret;
  const bought = await buy_airtime(server, account.key, '08031234568', 150);
  t.equal(bought.status, 201, 'the purchase is delivered');
  await receiver.wait_for(1, 20_000);
  const delivered = receiver.received[0];
  t.ok(delivered, 'the receiver got the event');
  const completed = (await all_events(account.key, 100)).filter((e) => e.event === 'transaction.completed').pop()!;
  t.equal(completed.id, delivered.json.id, 'the feed has the delivered event\'s id');
  t.equal(delivered.headers['webhook-id'], completed.id, 'which is the webhook-id header');
  const page = await feed(account.key, `limit=1&after=${(await all_events(account.key, 100)).find((e, i, all) => all[i + 1]?.id === completed.id)!.id}`);
  t.ok(page.text.includes(delivered.body), 'the feed answer holds the delivered body exactly');
});

t.test('the cursor holds across a restart and the feed goes on after it', async (t) => {
  const before = await all_events(account.key, 100);
  const cursor = before[before.length - 1].id;
  await server.stop();
  await server.start();
  const same = await all_events(account.key, 100);
  t.same(same.map((e) => e.id), before.map((e) => e.id), 'the feed is the same after the restart');
  t.same((await feed(account.key, `after=${cursor}`)).events, [], 'nothing after the last id seen yet');
  await buy_airtime(server, account.key, '08031234569', 120);
  const caught_up = await feed(account.key, `after=${cursor}`);
  t.same(caught_up.events.map((e) => e.event), ['wallet.debited', 'transaction.completed'], 'the purchase after the restart follows the last id seen');
  t.notOk(caught_up.events.some((e) => before.some((b) => b.id === e.id)), 'with new ids');
  const everything = await all_events(account.key, 7);
  t.same(everything.map((e) => e.id), [...before, ...caught_up.events].map((e) => e.id), 'the whole feed is the old events then the new ones');
});

t.test('bad parameters and unknown ids are 400 validation.failed naming the parameter', async (t) => {
  const [first] = (await feed(account.key, 'limit=1')).events;
  const [theirs] = (await feed(other.key, 'limit=1')).events;
  const cases: [string, string][] = [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['type=wallet.something', 'type'],
    ['after=evt_nothing', 'after'],
    [`after=${first.id.slice(0, 12)}${'A'.repeat(16)}`, 'after'],
    [`after=${theirs.id}`, 'after'],
  ];
  for (const [query, field] of cases) {
    const response = await server.api('GET', `/v1/events?${query}`, { key: account.key });
    check_error(t, response, 400, 'validation.failed', query);
    t.same(response.body.error.details?.map((d: { field: string }) => d.field), [field], `${query}: the details name ${field}`);
  }
  const full = await feed(account.key, 'limit=100');
  t.equal(full.events.length <= 100, true, 'limit=100 is accepted');
});

t.test('the feed needs a full-access key, like webhooks', async (t) => {
  const key = await server.create_key(account.id, { scopes: ['transactions:read'] });
  const response = await server.api('GET', '/v1/events', { key: key.api_key });
  check_error(t, response, 403, 'auth.insufficient_scope', 'a transactions:read key');
});
