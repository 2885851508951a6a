// Transaction event payloads are built by assignment instead of by spreading conditional objects
// (src/webhooks/payloads.ts: it halved the cost of a transaction.completed payload and its JSON). The
// body sent to endpoints and kept in the events feed is the byte-exact record of the event, so its
// fields must come in the same order as before, for each shape of order: read back from GET /v1/events
// (JSON.parse keeps the order of the stored body).
import t from 'tap';
import { start_server } from './helpers/server.js';
import { buy, buy_airtime, electricity_body, fast_reseller, sandbox, tv_body } from './helpers/purchases.js';

const server = await start_server(t);

interface FeedEvent { event: string; data: Record<string, unknown> }

async function events_of(key: string): Promise<FeedEvent[]> {
  const response = await server.api('GET', '/v1/events?limit=100', { key });
  if (response.status !== 200) throw new Error(`GET /v1/events answered ${response.status} ${response.text}`);
  return response.body.data.events as FeedEvent[];
}

const service = ['reference', 'service_type', 'network'];
const money = ['recipient', 'amount', 'amount_charged', 'commission', 'status', 'client_reference', 'metadata'];

t.test('a delivered and a failed airtime purchase carry their fields in the order they always had', async (t) => {
  const account = await fast_reseller(server);
  t.equal((await buy_airtime(server, account.key, sandbox.delivered, 100, { client_reference: 'ko-1', metadata: { till: '4' } })).status, 201, 'a sandbox airtime purchase is delivered');
  t.equal((await buy_airtime(server, account.key, sandbox.failed, 100)).status, 422, 'one fails');
  const events = await events_of(account.key);
  const completed = events.find((e) => e.event === 'transaction.completed')!;
  t.same(Object.keys(completed.data), [...service, ...money, 'delivered_at'], 'transaction.completed: service fields, money fields, delivered_at');
  t.same(completed.data.metadata, { till: '4' }, 'with its metadata');
  t.equal(completed.data.client_reference, 'ko-1', 'and its client reference');
  const failed = events.find((e) => e.event === 'transaction.failed')!;
  t.same(Object.keys(failed.data), [...service, ...money, 'failure_reason', 'at'], 'transaction.failed: then failure_reason and at');
  const debited = events.find((e) => e.event === 'wallet.debited')!;
  t.same(Object.keys(debited.data), ['wallet_transaction_id', 'type', 'amount', 'balance_after', 'reference', 'created_at'], 'wallet.debited is unchanged');
});

t.test('an electricity purchase puts disco after network and token, units, meter_type before delivered_at', async (t) => {
  const account = await fast_reseller(server);
  const response = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 1000));
  t.equal(response.status, 201, `a sandbox prepaid electricity purchase is delivered: ${response.text}`);
  const completed = (await events_of(account.key)).find((e) => e.event === 'transaction.completed')!;
  t.same(Object.keys(completed.data), [...service, 'disco', ...money, 'token', 'units', 'meter_type', 'delivered_at'], 'electricity fields in their places');
  t.equal(completed.data.disco, 'ikeja-electric', 'the disco');
  t.type(completed.data.token, 'string', 'and the token');
});

t.test('a TV purchase puts provider after network and its plan before delivered_at', async (t) => {
  const account = await fast_reseller(server);
  const response = await buy(server, account.key, '/v1/services/tv', tv_body(sandbox.valid_smartcard));
  t.equal(response.status, 201, `a sandbox TV purchase is delivered: ${response.text}`);
  const completed = (await events_of(account.key)).find((e) => e.event === 'transaction.completed')!;
  const keys = Object.keys(completed.data);
  t.same(keys.slice(0, 4), [...service, 'provider'], 'provider right after network');
  t.same(keys.slice(4, 11), money, 'then the money fields');
  t.equal(keys[keys.length - 1], 'delivered_at', 'delivered_at last');
  t.ok(!keys.includes('disco'), 'no disco on a TV order');
});
