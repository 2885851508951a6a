// Plans carry both names, plan_id and plan_code (docs/api.md "Plans: plan_id and plan_code"): data plans were
// listed as plan_id and bought as plan_code, so a newcomer sent plan_id and got 400. Every plan list now shows
// both (one value), and data and internet purchases take either; both given and different is 400, before the PIN,
// and nothing is debited.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, fast_reseller, idem } from './helpers/purchases.js';

const server = await start_server(t);

t.test('every data and internet plan lists plan_id and plan_code with the same value', async (t) => {
  const account = await fast_reseller(server, 1_000);
  for (const path of ['/v1/services/data/plans', '/v1/services/internet/plans']) {
    const plans = (await server.api('GET', path, { key: account.key })).body.data.plans as { plan_id?: string; plan_code?: string }[];
    t.ok(plans.length > 0, `${path} lists plans`);
    t.ok(plans.every((plan) => typeof plan.plan_id === 'string' && plan.plan_id === plan.plan_code), `${path}: each plan has plan_id and plan_code, equal`);
  }
});

t.test('a data purchase takes plan_id in place of plan_code, and both when they agree', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const by_id = await buy(server, account.key, '/v1/services/data/purchase', { network: 'mtn', plan_id: 'mtn-1gb-1d', phone: '08011111111', amount: 350, pin: '12345' }, idem());
  check_created(t, by_id, 'delivered', 'a data purchase by plan_id');
  t.equal(by_id.body.data.plan_code, 'mtn-1gb-1d', 'the order names the plan by its plan_code');
  t.equal(by_id.body.data.plan, 'MTN 1GB Daily', 'and by its name');
  const both = await buy(server, account.key, '/v1/services/data/purchase', { network: 'mtn', plan_id: 'mtn-1gb-1d', plan_code: 'mtn-1gb-1d', phone: '08011111111', amount: 350, pin: '12345' }, idem());
  check_created(t, both, 'delivered', 'a data purchase naming the plan twice, the same');
});

t.test('an internet purchase takes plan_id in place of plan_code', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const smile = await buy(server, account.key, '/v1/services/internet', { provider: 'smile', plan_id: 'smile-1-5gb-7d', account: '08011111111', phone: '08011111111', amount: 1_000, pin: '12345' }, idem());
  check_created(t, smile, 'delivered', 'a Smile purchase by plan_id');
  t.equal(smile.body.data.plan_code, 'smile-1-5gb-7d', 'the order names the plan by its plan_code');
});

t.test('plan_id and plan_code that differ, or neither, are 400 validation.failed and debit nothing', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const before = await balance_kobo(server, account.key);
  const cases = [
    { path: '/v1/services/data/purchase', body: { network: 'mtn', plan_id: 'mtn-1gb-1d', plan_code: 'mtn-100mb-1d', phone: '08011111111', amount: 350 }, field: 'plan_id', what: 'data: plan_id and plan_code differ' },
    { path: '/v1/services/data/purchase', body: { network: 'mtn', phone: '08011111111', amount: 350 }, field: 'plan_code', what: 'data: neither plan_id nor plan_code' },
    { path: '/v1/services/internet', body: { provider: 'spectranet', plan_id: 'spectranet-7000', plan_code: 'spectranet-15000', phone: '08011111111', amount: 7_000 }, field: 'plan_id', what: 'internet: plan_id and plan_code differ' },
    { path: '/v1/services/internet', body: { provider: 'spectranet', phone: '08011111111', amount: 7_000 }, field: 'plan_code', what: 'internet: neither' },
  ];
  for (const { path, body, field, what } of cases) {
    // A wrong PIN too: the body is refused first, so the PIN is not even checked (no wrong attempt counted).
    const response = await buy(server, account.key, path, { ...body, pin: '99999' }, idem());
    check_error(t, response, 400, 'validation.failed', what);
    t.equal(response.body.error?.details?.[0]?.field, field, `${what}: the detail names ${field}`);
  }
  t.equal(await balance_kobo(server, account.key), before, 'nothing was debited');
  const after = await buy(server, account.key, '/v1/services/data/purchase', { network: 'mtn', plan_code: 'mtn-1gb-1d', phone: '08011111111', amount: 350, pin: '12345' }, idem());
  check_created(t, after, 'delivered', 'the PIN was not locked by the refused bodies');
});

t.test('a bulk order\'s data item takes plan_id too', async (t) => {
  const account = await fast_reseller(server, 10_000);
  const response = await server.api('POST', '/v1/services/bulk', {
    key: account.key,
    idempotency_key: idem(),
    body: { pin: '12345', items: [
      { service_type: 'data', network: 'mtn', plan_id: 'mtn-1gb-1d', phone: '08011111111', amount: 350 },
      { service_type: 'data', network: 'mtn', plan_id: 'mtn-1gb-1d', plan_code: 'mtn-100mb-1d', phone: '08011111111', amount: 350 },
    ] },
  });
  t.equal(response.status, 202, 'the batch is placed');
  t.equal(response.body.data.items[0].status, 'delivered', 'the item naming plan_id is delivered');
  t.equal(response.body.data.items[1].status, 'refused', 'the item whose two names differ is refused');
  t.equal(response.body.data.items[1].error?.code, 'validation.failed', 'as validation.failed');
});
