// Idempotency remembers executions, not credentials (docs/decisions.md "Idempotency", docs/api.md
// "Idempotency"): a purchase or a bulk order refused for its PIN (pin.incorrect, pin.not_set; pin.locked
// is a 429) is not remembered under its X-Idempotency-Key, so the retry with the right PIN under the
// same key runs and buys, and is not marked Idempotent-Replayed. A purchase that did run is still
// replayed whatever PIN the repeat carries, and a request in flight still holds its key: wrong and right
// PINs racing under one key buy once.
import t from 'tap';
import { start_server } from './helpers/server.js';
import type { ApiResponse } from './helpers/server.js';
import { all_orders, balance_kobo, buy_airtime, check_created, check_error, fast_reseller, idem, sandbox } from './helpers/purchases.js';

const server = await start_server(t);

function replayed(response: ApiResponse): boolean {
  return response.headers.get('idempotent-replayed') === 'true';
}

t.test('a wrong PIN, then the right PIN under the same idempotency key: the second buys (201), not a replay', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('pin-retry');
  const wrong = await buy_airtime(server, account.key, sandbox.delivered, 100, { pin: '54321' }, key);
  check_error(t, wrong, 403, 'pin.incorrect', 'the first try has a wrong PIN');
  const right = await buy_airtime(server, account.key, sandbox.delivered, 100, {}, key);
  check_created(t, right, 'delivered', 'the retry with the right PIN under the same key');
  t.notOk(replayed(right), 'the retry is not marked Idempotent-Replayed: it ran');
  t.equal(await balance_kobo(server, account.key), 900_00, 'the wallet was debited once');
  const again = await buy_airtime(server, account.key, sandbox.delivered, 100, {}, key);
  t.ok(replayed(again), 'a repeat after the purchase is a replay');
  t.equal(again.text, right.text, 'the replay is the purchase\'s answer, byte for byte');
  const wrong_after = await buy_airtime(server, account.key, sandbox.delivered, 100, { pin: '54321' }, key);
  t.ok(replayed(wrong_after), 'a wrong PIN after the purchase ran still replays it (the PIN is not part of the request)');
  t.equal(wrong_after.status, 201, 'with its 201');
  t.equal((await all_orders(server, account.key)).length, 1, 'one order');
  t.equal(await balance_kobo(server, account.key), 900_00, 'still debited once');
});

t.test('pin.not_set is not remembered: once the PIN is set, the same key buys', async (t) => {
  const account = await fast_reseller(server, 1_000, { pin: undefined });
  const key = idem('pin-not-set');
  check_error(t, await buy_airtime(server, account.key, sandbox.delivered, 100, {}, key), 403, 'pin.not_set', 'a purchase before a PIN is set');
  const set = await server.admin('POST', `/admin/accounts/${account.id}/pin`, { pin: '12345' });
  t.equal(set.status, 200, 'the operator sets the PIN');
  const bought = await buy_airtime(server, account.key, sandbox.delivered, 100, {}, key);
  check_created(t, bought, 'delivered', 'the same key after the PIN is set');
  t.notOk(replayed(bought), 'not a replay of pin.not_set');
  t.equal(await balance_kobo(server, account.key), 900_00, 'debited once');
});

t.test('a bulk order with a wrong PIN, then the right PIN under the same key: the batch is placed (202), not replayed', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('bulk-pin-retry');
  const items = [
    { service_type: 'airtime', network: 'mtn', phone: sandbox.delivered, amount: 100 },
    { service_type: 'airtime', network: 'glo', phone: sandbox.delivered, amount: 50 },
  ];
  const wrong = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '54321', items }, idempotency_key: key });
  check_error(t, wrong, 403, 'pin.incorrect', 'the batch with a wrong PIN');
  const right = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items }, idempotency_key: key });
  t.equal(right.status, 202, `the batch with the right PIN under the same key is placed: ${right.text}`);
  t.notOk(replayed(right), 'not a replay of the refusal');
  const again = await server.api('POST', '/v1/services/bulk', { key: account.key, body: { pin: '12345', items }, idempotency_key: key });
  t.ok(replayed(again), 'the repeat after it ran is a replay');
  t.same(again.body?.data, right.body?.data, 'of the same batch');
  t.equal((await all_orders(server, account.key)).length, 2, 'the two items are the only orders');
  t.equal(await balance_kobo(server, account.key), 850_00, 'each item debited once');
});

t.test('wrong and right PINs racing under one key buy once', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('pin-race');
  const pins = ['54321', '12345', '12345', '54321', '12345', '12345'];
  const answers = await Promise.all(pins.map((pin) => buy_airtime(server, account.key, sandbox.delivered, 100, { pin }, key)));
  const references = new Set(answers.filter((a) => a.status === 201).map((a) => a.body?.data?.reference));
  t.equal(references.size, 1, `every 201 names the same order (${answers.map((a) => a.status).join(', ')})`);
  t.equal(answers.filter((a) => a.status === 201 && !replayed(a)).length, 1, 'exactly one answer ran the purchase');
  for (const [index, answer] of answers.entries()) {
    if (pins[index] === '12345') t.equal(answer.status, 201, `right PIN ${index} is answered with the purchase`);
    else t.ok(answer.status === 201 || answer.body?.error?.code === 'pin.incorrect', `wrong PIN ${index} is refused or handed the purchase (${answer.status})`);
  }
  t.equal((await all_orders(server, account.key)).length, 1, 'one order');
  t.equal(await balance_kobo(server, account.key), 900_00, 'one debit');
});
