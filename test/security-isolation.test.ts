// One account can never see or touch another's keys, orders, webhooks or wallet (issue "Reliability
// and security campaign", item 4; docs/spec.md section 7 "404: resource missing or not owned by the account";
// docs/decisions.md "Money": "the key's environment picks the wallet, the provider and the history that a request
// sees; nothing crosses between them"). Two accounts A and B, each with keys of both environments,
// orders, webhook endpoints with deliveries, wallet entries and a dashboard session. Every route that
// takes an id answers B with A's ids exactly as it answers an unknown id — 404 with the route's
// not-found code, never 403, so that ids do not leak — and A's objects are unchanged afterwards. The
// same holds between the test and live environments of one account.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { load_catalog, make_world, send, snapshot, snapshot_difference, type RequestSpec, type RouteEntry, type WireResponse, type World } from './helpers/route-catalog.js';

const receivers = [new WebhookReceiver(), new WebhookReceiver(), new WebhookReceiver()];
for (const receiver of receivers) await receiver.start();
t.teardown(async () => {
  for (const receiver of receivers) await receiver.stop();
});
const [receiver_a, receiver_b, receiver_a_live] = receivers;
const server = await start_server(t, { env: webhook_env() });
const catalog = await load_catalog(server);
const A = await make_world(server, { receiver: receiver_a });
const B = await make_world(server, { receiver: receiver_b });

/** Names and URLs that exist only in A, to look for in what B can list. */
const marker_key_name = `A-only-key-${Date.now()}`;
const marker = await server.create_key(A.account_id, { name: marker_key_name, environment: 'test' });
const live_endpoint = await server.api('POST', '/v1/webhooks', { key: A.live_key, body: { url: receiver_a_live.url, description: 'A live endpoint' } });
receiver_a_live.secret = live_endpoint.body.data.secret;
await server.credit(A.account_id, 'live', 5000);
let live_delivery_id = 0;
for (let attempt = 0; attempt < 200 && live_delivery_id === 0; attempt++) {
  const deliveries = await server.api('GET', `/v1/webhooks/${live_endpoint.body.data.id}/deliveries`, { key: A.live_key });
  live_delivery_id = deliveries.body?.data?.deliveries?.[0]?.id ?? 0;
  if (live_delivery_id === 0) await new Promise((resolve) => setTimeout(resolve, 50));
}
const A_live = { endpoint_id: live_endpoint.body.data.id as number, delivery_id: live_delivery_id };
const A_observer = { server, test_key: A.key, live_key: A.live_key };

/** The not-found code of each route that takes an id: what an unknown id gets, and so what a foreign one must get. */
const not_found_code: Record<string, string> = {
  '/v1/keys/{id}': 'keys.not_found',
  '/v1/agents/{id}': 'account.not_found',
  '/v1/agents/{id}/pin': 'account.not_found',
  '/v1/agents/{id}/transfers': 'account.not_found',
  '/v1/agents/{id}/pricing': 'account.not_found',
  '/v1/transactions/{reference}': 'transaction.not_found',
  '/v1/transactions/{reference}/receipt': 'transaction.not_found',
  '/v1/transactions/{reference}/resend': 'transaction.not_found',
  '/v1/transactions/{reference}/requery': 'transaction.not_found',
  '/v1/transactions/{reference}/cancel': 'transaction.not_found',
  '/v1/services/bulk/{id}': 'batch.not_found',
  '/v1/webhooks/{id}': 'webhooks.not_found',
  '/v1/webhooks/{id}/deliveries': 'webhooks.not_found',
  '/v1/webhooks/{id}/deliveries/{delivery_id}/replay': 'webhooks.not_found',
  '/v1/webhooks/{id}/test': 'webhooks.not_found',
  '/v1/webhooks/{id}/roll-secret': 'webhooks.not_found',
  '/v1/webhooks/{id}/deliveries/{delivery_id}/retry': 'webhooks.not_found',
  '/dashboard/api/agents/{id}': 'account.not_found',
  '/dashboard/api/agents/{id}/pin': 'account.not_found',
  '/dashboard/api/agents/{id}/transfers': 'account.not_found',
  '/dashboard/api/agents/{id}/pricing': 'account.not_found',
  '/dashboard/api/orders/{reference}': 'transaction.not_found',
  '/dashboard/api/orders/{reference}/receipt': 'transaction.not_found',
  '/dashboard/api/orders/{reference}/requery': 'transaction.not_found',
  '/dashboard/api/orders/{reference}/cancel': 'transaction.not_found',
  '/dashboard/api/keys/{id}': 'keys.not_found',
  '/dashboard/api/webhooks/{id}': 'webhooks.not_found',
  '/dashboard/api/webhooks/{id}/deliveries': 'webhooks.not_found',
  '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay': 'webhooks.not_found',
  '/dashboard/api/webhooks/{id}/test': 'webhooks.not_found',
  '/dashboard/api/webhooks/{id}/roll-secret': 'webhooks.not_found',
  '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/retry': 'webhooks.not_found',
};
// A phone number names nobody's record (GET /v1/lookup/phone/{phone} reads the numbering plan): not an id.
const id_routes = catalog.routes.filter((r) => r.params.length > 0 && !(r.params.length === 1 && r.params[0] === 'phone') && (r.auth === 'api_key' || r.auth === 'session'));

function code(response: WireResponse): string | undefined {
  try {
    return JSON.parse(response.body)?.error?.code;
  } catch {
    return undefined;
  }
}

/** A's ids for each parameter of a route: keys for key routes, endpoints and deliveries for webhook routes. */
function foreign_params(route: RouteEntry, owner: World, extra: { endpoints?: number[]; deliveries?: number[] } = {}): Record<string, string>[] {
  if (route.params.includes('reference')) return [{ reference: owner.reference }];
  if (route.template.includes('/bulk/')) return [{ id: owner.batch_id }];
  if (route.template.includes('/keys/')) return [owner.key_id, owner.live_key_id, owner.victim_key_id, marker.id].map((id) => ({ id: String(id) }));
  const endpoints = extra.endpoints ?? [owner.endpoint_id, owner.victim_endpoint_id, A_live.endpoint_id];
  if (route.params.includes('delivery_id')) {
    const deliveries = extra.deliveries ?? [owner.delivery_id, A_live.delivery_id];
    return endpoints.flatMap((e) => deliveries.map((d) => ({ id: String(e), delivery_id: String(d) })));
  }
  return endpoints.map((id) => ({ id: String(id) }));
}

function aimed(route: RouteEntry, caller: World, params: Record<string, string>, query?: string): RequestSpec {
  const spec = route.build(caller);
  spec.params = params;
  if (query !== undefined) spec.query = query;
  return spec;
}

async function deliveries_of(world: World, key: string, endpoint_id: number): Promise<string> {
  const response = await server.api('GET', `/v1/webhooks/${endpoint_id}/deliveries?per_page=100`, { key });
  return JSON.stringify(response.body?.data?.deliveries?.map((d: any) => [d.id, d.status, d.series]));
}

t.test('the isolation table names the not-found code of every route that takes an id', async (t) => {
  t.ok(id_routes.length >= 10, `the catalogue has the public and dashboard routes that take ids (${id_routes.length})`);
  for (const route of id_routes) t.ok(not_found_code[route.template] !== undefined, `${route.name} has a not-found code in the table`);
  t.ok(A_live.delivery_id > 0, 'A has a live endpoint with a delivery');
});

t.test('B gets 404, never 403, for A\'s order, key, endpoint and delivery ids on every public route that takes one, and A is unchanged', async (t) => {
  const before = await snapshot(A_observer);
  const deliveries_before = await deliveries_of(A, A.key, A.endpoint_id);
  let tried = 0;
  for (const route of id_routes.filter((r) => r.auth === 'api_key')) {
    for (const caller_key of [B.key, B.live_key]) {
      for (const params of foreign_params(route, A)) {
        const response = await send(server, aimed(route, { ...B, key: caller_key }, params));
        tried++;
        const what = `${route.name} by B's ${caller_key === B.key ? 'test' : 'live'} key with A's ${JSON.stringify(params)}`;
        t.not(response.status, 403, `${what} is not 403`);
        t.equal(response.status, 404, `${what} is 404`);
        t.equal(code(response), not_found_code[route.template], `${what} is ${not_found_code[route.template]}`);
      }
    }
  }
  // B's own endpoint with A's delivery id: the delivery is not B's.
  for (const delivery_id of [A.delivery_id, A_live.delivery_id]) {
    const replay = catalog.routes.find((r) => r.name === 'POST /v1/webhooks/{id}/deliveries/{delivery_id}/replay')!;
    const response = await send(server, aimed(replay, B, { id: String(B.endpoint_id), delivery_id: String(delivery_id) }));
    t.equal(response.status, 404, `replaying A's delivery ${delivery_id} through B's own endpoint is 404`);
    t.equal(code(response), 'webhooks.delivery_not_found', `replaying A's delivery ${delivery_id} through B's own endpoint is webhooks.delivery_not_found`);
  }
  const lookup = await server.api('GET', `/v1/transactions?idempotency_key=${encodeURIComponent(A.order_idempotency_key)}`, { key: B.key });
  t.equal(lookup.status, 200, 'B looking up A\'s X-Idempotency-Key gets an answer');
  t.same(lookup.body?.data?.transactions, [], 'B finds no order under A\'s X-Idempotency-Key');
  t.comment(`${tried} requests by B with A's ids`);
  const after = await snapshot(A_observer);
  t.equal(after, before, `A's account, wallets, orders, keys and webhooks are unchanged${after === before ? '' : `: ${snapshot_difference(before, after)}`}`);
  t.equal(await deliveries_of(A, A.key, A.endpoint_id), deliveries_before, 'A\'s deliveries were not replayed');
  for (const key of [A.key, A.live_key]) t.equal((await server.api('GET', '/v1/account', { key })).status, 200, 'A\'s keys still work');
});

t.test('B\'s dashboard session gets 404 for A\'s ids on every dashboard route that takes one, in both environments, and A is unchanged', async (t) => {
  const before = await snapshot(A_observer);
  const deliveries_before = await deliveries_of(A, A.key, A.endpoint_id);
  for (const route of id_routes.filter((r) => r.auth === 'session')) {
    for (const environment of ['test', 'live']) {
      for (const params of foreign_params(route, A)) {
        const response = await send(server, aimed(route, B, params, `environment=${environment}`));
        const what = `${route.name}?environment=${environment} in B's session with A's ${JSON.stringify(params)}`;
        t.not(response.status, 403, `${what} is not 403`);
        t.equal(response.status, 404, `${what} is 404`);
        t.equal(code(response), not_found_code[route.template], `${what} is ${not_found_code[route.template]}`);
      }
    }
  }
  const replay = catalog.routes.find((r) => r.name === 'POST /dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay')!;
  const own = await send(server, aimed(replay, B, { id: String(B.endpoint_id), delivery_id: String(A.delivery_id) }));
  t.equal(code(own), 'webhooks.delivery_not_found', 'B\'s session replaying A\'s delivery through B\'s endpoint is webhooks.delivery_not_found');
  const after = await snapshot(A_observer);
  t.equal(after, before, `A is unchanged${after === before ? '' : `: ${snapshot_difference(before, after)}`}`);
  t.equal(await deliveries_of(A, A.key, A.endpoint_id), deliveries_before, 'A\'s deliveries were not replayed');
});

/**
 * Route variants that name an account rather than an object: a dashboard session reading its agent's orders
 * with Billvend-Account (docs/api.md "Agents in the dashboard"). A's account and A's agent are outside B's
 * subtree: the same 404 account.not_found as an id never made, as the API's acting key gets.
 */
const acting_variants: { template: string; params: (owner: World) => Record<string, string> }[] = [
  { template: '/dashboard/api/orders', params: () => ({}) },
  { template: '/dashboard/api/orders/{reference}', params: (owner) => ({ reference: owner.reference }) },
];

t.test('B\'s dashboard session reading orders for A\'s account or A\'s agent (Billvend-Account) gets the same 404 account.not_found', async (t) => {
  const before = await snapshot(A_observer);
  for (const variant of acting_variants) {
    const route = catalog.routes.find((r) => r.template === variant.template && r.method === 'GET' && r.auth === 'session')!;
    t.ok(route !== undefined, `${variant.template} is in the catalogue`);
    for (const account of [A.account_id, A.agent_id, 9_999_999]) {
      for (const environment of ['test', 'live']) {
        const spec = aimed(route, B, variant.params(A), `environment=${environment}`);
        spec.headers.push(['Billvend-Account', String(account)]);
        const response = await send(server, spec);
        const what = `${route.name}?environment=${environment} in B's session with Billvend-Account ${account}`;
        t.equal(response.status, 404, `${what} is 404`);
        t.equal(code(response), 'account.not_found', `${what} is account.not_found`);
        t.notOk(response.body.includes(A.reference), `${what} does not show A's order`);
      }
    }
  }
  const after = await snapshot(A_observer);
  t.equal(after, before, `A is unchanged${after === before ? '' : `: ${snapshot_difference(before, after)}`}`);
});

t.test('nothing B can list, through the API or the dashboard, shows anything of A', async (t) => {
  const foreign = [A.reference, A.email, marker_key_name, receiver_a.url, receiver_a_live.url, A.order_idempotency_key];
  const api_lists = ['/v1/account', '/v1/wallet/transactions?per_page=100', '/v1/transactions?per_page=100', '/v1/keys', '/v1/webhooks'];
  for (const key of [B.key, B.live_key]) {
    // B's endpoint is a test one: its deliveries are listed to the test key only.
    for (const path of key === B.key ? [...api_lists, `/v1/webhooks/${B.endpoint_id}/deliveries?per_page=100`] : api_lists) {
      const response = await server.api('GET', path, { key });
      t.equal(response.status, 200, `B lists ${path}`);
      for (const text of foreign) t.notOk(response.text.includes(text), `${path} for B's ${key === B.key ? 'test' : 'live'} key does not contain A's ${text.slice(0, 40)}`);
    }
  }
  const dashboard_lists = catalog.routes.filter((r) => r.auth === 'session' && r.method === 'GET' && r.params.length === 0);
  t.ok(dashboard_lists.length >= 7, `the dashboard's lists are all tried (${dashboard_lists.length})`);
  for (const route of dashboard_lists) {
    for (const environment of ['test', 'live']) {
      const response = await send(server, { ...route.build(B), query: `environment=${environment}` });
      t.equal(response.status, 200, `B's session reads ${route.name}?environment=${environment}`);
      for (const text of foreign) t.notOk(response.body.includes(text), `${route.name}?environment=${environment} in B's session does not contain A's ${text.slice(0, 40)}`);
    }
  }
  const overview = await server.api('GET', '/dashboard/api/overview', { headers: { cookie: `bv_session=${B.session.cookie}` } });
  t.equal(overview.body?.data?.account?.id, B.account_id, 'B\'s dashboard overview is B\'s account');
  const account = await server.api('GET', '/v1/account', { key: B.key });
  t.equal(account.body?.data?.id, B.account_id, 'B\'s key reads B\'s account');
});

t.test('the test and live environments of one account do not see each other\'s orders, endpoints or deliveries', async (t) => {
  const before = await snapshot(A_observer);
  const by_template = (template: string) => id_routes.find((r) => r.template === template && r.auth === 'api_key')!;
  const rows: [string, string, Record<string, string>][] = [
    // A's live key on A's test objects.
    [A.live_key, '/v1/transactions/{reference}', { reference: A.reference }],
    [A.live_key, '/v1/webhooks/{id}/deliveries', { id: String(A.endpoint_id) }],
    [A.live_key, '/v1/webhooks/{id}/deliveries/{delivery_id}/replay', { id: String(A.endpoint_id), delivery_id: String(A.delivery_id) }],
    [A.live_key, '/v1/webhooks/{id}', { id: String(A.victim_endpoint_id) }],
    // A's test key on A's live objects.
    [A.key, '/v1/webhooks/{id}/deliveries', { id: String(A_live.endpoint_id) }],
    [A.key, '/v1/webhooks/{id}/deliveries/{delivery_id}/replay', { id: String(A_live.endpoint_id), delivery_id: String(A_live.delivery_id) }],
    [A.key, '/v1/webhooks/{id}', { id: String(A_live.endpoint_id) }],
  ];
  for (const [key, template, params] of rows) {
    const route = by_template(template);
    const response = await send(server, aimed(route, { ...A, key }, params));
    const what = `${route.name} by A's ${key === A.key ? 'test' : 'live'} key on the other environment's ${JSON.stringify(params)}`;
    t.equal(response.status, 404, `${what} is 404`);
    t.equal(code(response), not_found_code[template], `${what} is ${not_found_code[template]}`);
  }
  const dashboard_rows: [string, string, Record<string, string>][] = [
    ['live', '/dashboard/api/orders/{reference}', { reference: A.reference }],
    ['live', '/dashboard/api/webhooks/{id}/deliveries', { id: String(A.endpoint_id) }],
    ['live', '/dashboard/api/webhooks/{id}/deliveries/{delivery_id}/replay', { id: String(A.endpoint_id), delivery_id: String(A.delivery_id) }],
    ['live', '/dashboard/api/webhooks/{id}', { id: String(A.victim_endpoint_id) }],
    ['test', '/dashboard/api/webhooks/{id}/deliveries', { id: String(A_live.endpoint_id) }],
    ['test', '/dashboard/api/webhooks/{id}', { id: String(A_live.endpoint_id) }],
  ];
  for (const [environment, template, params] of dashboard_rows) {
    const route = id_routes.find((r) => r.template === template)!;
    const response = await send(server, aimed(route, A, params, `environment=${environment}`));
    const what = `${route.name}?environment=${environment} in A's session on the other environment's ${JSON.stringify(params)}`;
    t.equal(response.status, 404, `${what} is 404`);
    t.equal(code(response), not_found_code[template], `${what} is ${not_found_code[template]}`);
  }
  const test_list = await server.api('GET', '/v1/transactions?per_page=100', { key: A.live_key });
  t.notOk(test_list.text.includes(A.reference), 'A\'s live history does not list A\'s test order');
  const live_hooks = await server.api('GET', '/v1/webhooks', { key: A.key });
  t.notOk(live_hooks.text.includes(receiver_a_live.url), 'A\'s test key does not list A\'s live endpoint');
  const after = await snapshot(A_observer);
  t.equal(after, before, `A is unchanged${after === before ? '' : `: ${snapshot_difference(before, after)}`}`);
});

t.test('a test key cannot revoke the account\'s live keys (a sandbox key must not cut off production)', async (t) => {
  // docs/decisions.md "Keys and the PIN in detail": as a test key may not create live keys (403
  // auth.insufficient_scope), it may not revoke them. The account's own key list shows both environments, so
  // the id is no secret here: the answer is the same 403 as for creation, not a 404.
  const world = await make_world(server, { receiver: receiver_b });
  const response = await server.api('DELETE', `/v1/keys/${world.live_key_id}`, { key: world.key });
  t.equal(response.status, 403, `DELETE /v1/keys/{live key id} with a test key is 403 (got ${response.status} ${response.text.slice(0, 120)})`);
  t.equal(response.body?.error?.code, 'auth.insufficient_scope', 'and auth.insufficient_scope');
  const live = await server.api('GET', '/v1/account', { key: world.live_key });
  t.equal(live.status, 200, 'the live key still works');
});
