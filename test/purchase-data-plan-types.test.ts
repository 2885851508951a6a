// Data plan types (docs/api.md "Data plan types"): every plan carries plan_type (sme, gifting, corporate,
// direct) from data/catalog/, the plan list filters on it alone or with network, a bad value is 400, and the
// operator re-types a plan like it re-prices one, effective at once and kept across a restart.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo_root, start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, data_body, fast_reseller, kobo } from './helpers/purchases.js';

interface ShippedPlan { plan_id: string; network: string; plan_type: string; amount: number; enabled: boolean }
const shipped = (JSON.parse(readFileSync(join(repo_root, 'data', 'catalog', 'data-plans.json'), 'utf8')) as { plans: ShippedPlan[] }).plans;
const plan_types = ['sme', 'gifting', 'corporate', 'direct'];
const networks = ['mtn', 'airtel', 'glo', '9mobile'];

const server = await start_server(t);
const account = await fast_reseller(server, 100_000);

async function listed(query: string): Promise<{ plan_id: string; plan_type: string; network: string }[]> {
  const response = await server.api('GET', `/v1/services/data/plans${query}`, { key: account.key });
  if (response.status !== 200) throw new Error(`plans${query}: ${response.status} ${response.text}`);
  return response.body.data.plans;
}

t.test('every shipped plan has one of the four plan types, and each type is shipped', async (t) => {
  for (const plan of shipped) t.ok(plan_types.includes(plan.plan_type), `${plan.plan_id} has a known plan_type (${plan.plan_type})`);
  for (const type of plan_types) t.ok(shipped.some((p) => p.enabled && p.plan_type === type), `the catalog ships an enabled ${type} plan`);
});

t.test('the plan list shows each plan\'s shipped plan_type', async (t) => {
  const plans = await listed('');
  t.ok(plans.length > 0, 'plans are listed');
  for (const plan of plans) t.equal(plan.plan_type, shipped.find((p) => p.plan_id === plan.plan_id)?.plan_type, `${plan.plan_id} shows its shipped plan_type`);
});

t.test('plan_type alone lists exactly the enabled plans of that type, for each of the four values', async (t) => {
  for (const type of plan_types) {
    const ids = (await listed(`?plan_type=${type}`)).map((p) => p.plan_id).sort();
    const expected = shipped.filter((p) => p.enabled && p.plan_type === type).map((p) => p.plan_id).sort();
    t.ok(expected.length > 0, `the catalog has enabled ${type} plans`);
    t.same(ids, expected, `plan_type=${type} lists exactly the enabled ${type} plans`);
  }
});

t.test('plan_type combines with network: only plans of both', async (t) => {
  for (const network of networks) {
    for (const type of plan_types) {
      const ids = (await listed(`?network=${network}&plan_type=${type}`)).map((p) => p.plan_id).sort();
      const expected = shipped.filter((p) => p.enabled && p.network === network && p.plan_type === type).map((p) => p.plan_id).sort();
      t.same(ids, expected, `network=${network}&plan_type=${type} lists exactly those plans (${expected.length})`);
    }
  }
  const same_either_order = (await listed('?plan_type=sme&network=glo')).map((p) => p.plan_id);
  t.same(same_either_order, (await listed('?network=glo&plan_type=sme')).map((p) => p.plan_id), 'the order of the parameters does not matter');
});

t.test('a bad plan_type is 400 validation.failed naming the field, with or without a network', async (t) => {
  for (const query of ['?plan_type=SME', '?plan_type=data-share', '?plan_type=', '?network=mtn&plan_type=cg', `?plan_type=${'x'.repeat(300)}`]) {
    const response = await server.api('GET', `/v1/services/data/plans${query}`, { key: account.key });
    check_error(t, response, 400, 'validation.failed', `plans${query.slice(0, 40)}`);
    t.same(response.body.error?.details?.map((d: { field: string }) => d.field), ['plan_type'], `plans${query.slice(0, 40)}: the detail names plan_type`);
  }
  check_error(t, await server.api('GET', '/v1/services/data/plans?network=etisalat&plan_type=sme', { key: account.key }), 400, 'validation.failed', 'a bad network with a good plan_type');
});

t.test('a plan of each type can be bought at its price, and the purchase is unchanged by the type', async (t) => {
  const buyer = await fast_reseller(server, 50_000);
  let spent = 0;
  for (const type of plan_types) {
    const plan = shipped.find((p) => p.enabled && p.network === 'mtn' && p.plan_type === type)!;
    const response = await buy(server, buyer.key, '/v1/services/data/purchase', data_body(plan.plan_id, plan.amount, '08031239001'));
    check_created(t, response, 'delivered', `${type} plan ${plan.plan_id}`);
    t.equal(response.body.data.plan_code, plan.plan_id, `${type}: the result names the plan`);
    spent += kobo(plan.amount);
  }
  t.equal(await balance_kobo(server, buyer.key), 50_000_00 - spent, 'each was debited its price');
});

t.test('the operator re-types a plan at once and across a restart; a bad plan_type is 400 and changes nothing', async (t) => {
  const plan = shipped.find((p) => p.enabled && p.network === 'airtel' && p.plan_type === 'direct')!;
  const changed = await server.admin('PATCH', `/admin/catalog/data-plans/${plan.plan_id}`, { plan_type: 'corporate' });
  t.equal(changed.status, 200, `re-typing ${plan.plan_id} is 200`);
  t.equal(changed.body.data.plan_type, 'corporate', 'the answer shows the new type');
  t.equal(kobo(changed.body.data.amount), kobo(plan.amount), 'the price is untouched');
  t.ok((await listed('?plan_type=corporate&network=airtel')).some((p) => p.plan_id === plan.plan_id), 'the plan is listed as corporate at once');
  t.notOk((await listed('?plan_type=direct&network=airtel')).some((p) => p.plan_id === plan.plan_id), 'and no longer as direct');
  const bad = await server.admin('PATCH', `/admin/catalog/data-plans/${plan.plan_id}`, { plan_type: 'premium' });
  check_error(t, bad, 400, 'validation.failed', 'an unknown plan_type from the operator');
  t.equal(await server.stop(), 0, 'the server stops cleanly');
  await server.start();
  const after = await listed('?network=airtel');
  t.equal(after.find((p) => p.plan_id === plan.plan_id)?.plan_type, 'corporate', 'the new type survives a restart');
  const back = await server.admin('PATCH', `/admin/catalog/data-plans/${plan.plan_id}`, { plan_type: 'direct', amount: plan.amount });
  t.equal(back.body.data.plan_type, 'direct', 'and can be set back');
});
