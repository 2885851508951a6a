// A bulk item runs a single purchase's checks in a single purchase's order (docs/api.md "Bulk orders" and
// "Client references and metadata"): found when a crash campaign run (seed 1803280861) sent an item that
// both repeated a client_reference and named the sandbox's provider-down number. The provider's
// availability comes before the claim of the client_reference, and the refusals a meter's or
// smartcard's verification decides (docs/api.md "Deeper verification") come before the debit, for an
// item exactly as for a single purchase.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { all_orders, balance_kobo, electricity_body, fast_reseller, sandbox } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.01', LOG_LEVEL: 'warn' } });

function electricity_item(meter_number: string, amount: number, extra: Record<string, unknown> = {}) {
  const { pin: _pin, ...body } = electricity_body(meter_number, amount, extra);
  return { service_type: 'electricity', ...body };
}

t.test('an item that repeats a client_reference and names the provider-down number is refused as a single purchase is: transaction.provider_unavailable', async (t) => {
  const account = await fast_reseller(server, 20_000);
  const first = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone: sandbox.delivered, amount: 100, pin: '12345', client_reference: 'inv-both' } });
  t.equal(first.status, 201, `the first purchase takes the client_reference (${first.text.slice(0, 200)})`);
  const single = await server.api('POST', '/v1/services/airtime', { key: account.key, body: { network: 'mtn', phone: sandbox.provider_down, amount: 100, pin: '12345', client_reference: 'inv-both' } });
  t.equal(`${single.status} ${single.body?.error?.code}`, '503 transaction.provider_unavailable', 'a single purchase with both is refused for the provider');
  const bulk = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items: [
    { service_type: 'airtime', network: 'mtn', phone: sandbox.provider_down, amount: 100, client_reference: 'inv-both' },
    { service_type: 'airtime', network: 'mtn', phone: sandbox.delivered, amount: 100, client_reference: 'inv-both' },
  ] } });
  t.equal(bulk.status, 202, `the bulk order is answered (${bulk.text.slice(0, 200)})`);
  t.equal(bulk.body.data.items[0].error?.code, 'transaction.provider_unavailable', 'the item with both is refused for the provider, as the single purchase');
  t.equal(bulk.body.data.items[1].error?.code, 'transaction.duplicate_reference', 'the item whose provider is up is refused for the client_reference');
  t.equal(bulk.body.data.items[1].error?.reference, first.body.data.reference, 'naming the order that holds it');
  t.equal(await balance_kobo(server, account.key), 20_000_00 - 100_00, 'only the first purchase was debited');
});

t.test('an electricity item below its meter\'s minimum, or for a meter that cannot vend, is refused as a single purchase is, nothing debited', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const bulk = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items: [
    electricity_item(sandbox.arrears_meter, 1_000),
    electricity_item(sandbox.blocked_meter, 10_000),
    electricity_item(sandbox.arrears_meter, 5_000),
  ] } });
  t.equal(bulk.status, 202, `the bulk order is answered (${bulk.text.slice(0, 300)})`);
  const items = bulk.body.data.items;
  t.same([items[0].status, items[0].reference, items[0].error?.code], ['refused', null, 'service.amount_below_minimum'], 'below the minimum: refused');
  t.match(items[0].error?.details?.[0]?.message, /at least 5000 NGN/, 'its error\'s details name the minimum');
  t.same([items[1].status, items[1].error?.code], ['refused', 'service.meter_cannot_vend'], 'the blocked meter: refused');
  t.same([items[2].status, items[2].reference === null], ['delivered', false], 'exactly the minimum: placed and delivered');
  t.equal(await balance_kobo(server, account.key), 45_000_00, 'only the item at the minimum was debited');
  t.equal((await all_orders(server, account.key)).length, 1, 'one order was made');
});

t.test('a TV renewal item is held to the smartcard\'s renewal amount and gets its current package, as a single renewal is', async (t) => {
  const account = await fast_reseller(server, 100_000);
  const renewal = (amount: number) => ({ service_type: 'tv', provider: 'dstv', smartcard_number: sandbox.renewal_smartcard, subscription_type: 'renew', amount });
  const bulk = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items: [renewal(1_000), renewal(21_500)] } });
  t.equal(bulk.status, 202, `the bulk order is answered (${bulk.text.slice(0, 300)})`);
  const items = bulk.body.data.items;
  t.same([items[0].status, items[0].reference, items[0].error?.code], ['refused', null, 'service.amount_mismatch'], 'a renewal at another amount than the renewal amount is refused');
  t.equal(items[1].status, 'delivered', `the renewal at its amount is delivered (${JSON.stringify(items[1])})`);
  const order = await server.api('GET', `/v1/transactions/${items[1].reference}`, { key: account.key });
  t.ok(typeof order.body.data.package_code === 'string' && order.body.data.package_code !== '', `its order names the smartcard's current package (${order.body.data.package_code})`);
  t.equal(await balance_kobo(server, account.key), 100_000_00 - 21_500_00, 'only the renewal at its amount was debited');
});
