// Airtime purchases through real sockets (docs/spec.md section 2 "Purchase results", section 4 "Airtime",
// section 8 "Airtime amount"; docs/decisions.md "Money", "Transactions", "Idempotency").
import t from 'tap';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy_airtime, check_created, check_error, entries_of, fast_reseller, idem, kobo, order, phone_on } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });

t.test('an airtime purchase answers 201 with exactly the spec result and debits the wallet once', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const response = await buy_airtime(server, account.key, '08031234567', 100.5);
  check_created(t, response, 'delivered', 'airtime of 100.50');
  const data = response.body.data;
  t.same(Object.keys(data).sort(), ['amount', 'amount_charged', 'client_reference', 'commission', 'expected_final_at', 'metadata', 'network', 'phone', 'reference', 'status', 'wallet_balance_after'], 'the result has exactly the spec fields, the pricing ones (docs/api.md "Pricing"), the client ones ("Client references and metadata") and the promise ("A promised time")');
  t.equal(data.network, 'mtn', 'network is echoed');
  t.equal(data.phone, '08031234567', 'phone is echoed');
  t.equal(kobo(data.amount), 100_50, 'amount is 100.50');
  t.equal(kobo(data.wallet_balance_after), 899_50, 'wallet_balance_after is 1,000 − 100.50');
  t.match(response.body.message, /airtime/i, 'the message speaks of airtime');
  t.equal(await balance_kobo(server, account.key), 899_50, 'the wallet holds 899.50');
  const entries = await entries_of(server, account.key, data.reference);
  t.equal(entries.length, 1, 'the order has exactly one wallet entry');
  t.equal(entries[0].type, 'debit', 'it is a debit');
  t.equal(kobo(entries[0].amount), 100_50, 'of 100.50');
  t.equal(kobo(entries[0].balance_before), 1_000_00, 'balance_before is 1,000');
  t.equal(kobo(entries[0].balance_after), 899_50, 'balance_after is 899.50');
  const record = await order(server, account.key, data.reference);
  t.equal(record.status, 'delivered', 'the full record says delivered');
  t.equal(record.service_type, 'airtime', 'the full record is an airtime order');
});

t.test('the airtime amount is checked at its edges: 49 and 50001 are refused, 50 and 50000 are bought', async (t) => {
  const account = await fast_reseller(server, 150_000);
  const rows: { amount: unknown; status: number; what: string }[] = [
    { amount: 49, status: 400, what: '49 NGN, below the minimum' },
    { amount: 49.99, status: 400, what: '49.99 NGN, one kobo below the minimum' },
    { amount: 50, status: 201, what: '50 NGN, the minimum' },
    { amount: 50.01, status: 201, what: '50.01 NGN' },
    { amount: 50000, status: 201, what: '50,000 NGN, the maximum' },
    { amount: 50000.01, status: 400, what: '50,000.01 NGN, one kobo above the maximum' },
    { amount: 50001, status: 400, what: '50,001 NGN, above the maximum' },
    { amount: 100.001, status: 400, what: 'an amount with 3 decimals' },
    { amount: -100, status: 400, what: 'a negative amount' },
    { amount: 0, status: 400, what: 'zero' },
    { amount: '100', status: 400, what: 'an amount as a string' },
  ];
  for (const row of rows) {
    const before = await balance_kobo(server, account.key);
    const response = await buy_airtime(server, account.key, '08031234568', row.amount as number);
    const after = await balance_kobo(server, account.key);
    if (row.status === 201) {
      check_created(t, response, 'delivered', row.what);
      t.equal(kobo(response.body.data.amount), kobo(row.amount as number), `${row.what}: the order is for that amount`);
      t.equal(before - after, kobo(row.amount as number), `${row.what}: the wallet is debited exactly that amount`);
    } else {
      check_error(t, response, 400, 'validation.failed', row.what);
      t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'amount'), `${row.what}: details name the amount`);
      t.equal(after, before, `${row.what}: nothing is debited`);
    }
  }
});

t.test('every network can be bought and an unknown network or a malformed phone is 400', async (t) => {
  const account = await fast_reseller(server, 1_000);
  for (const network of ['mtn', 'airtel', 'glo', '9mobile']) {
    const response = await buy_airtime(server, account.key, phone_on(network), 50, { network });
    check_created(t, response, 'delivered', `airtime on ${network}`);
    t.equal(response.body.data.network, network, `the result names ${network}`);
  }
  const rows: [string, Record<string, unknown>, string][] = [
    ['network etisalat', { network: 'etisalat' }, 'network'],
    ['a 10-digit phone', { phone: '0803123456' }, 'phone'],
    ['a 12-digit phone', { phone: '080312345678' }, 'phone'],
    // Without a network it is detected from the number (docs/api.md "Phone lookup"): refused only when it cannot be.
    ['a missing network for a number of no known network', { network: undefined, phone: '07021234569' }, 'network'],
    ['a missing pin', { pin: undefined }, 'pin'],
  ];
  const before = await balance_kobo(server, account.key);
  for (const [what, overrides, field] of rows) {
    const response = await buy_airtime(server, account.key, '08031234569', 50, overrides);
    check_error(t, response, 400, 'validation.failed', what);
    t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === field), `${what}: details name ${field}`);
  }
  t.equal(await balance_kobo(server, account.key), before, 'no refused request debited anything');
});

t.test('a balance one kobo short is 422 wallet.insufficient_funds; the exact balance buys and leaves zero', async (t) => {
  const account = await fast_reseller(server, 0);
  await server.credit(account.id, 'test', 99.99);
  const short = await buy_airtime(server, account.key, '08031234570', 100);
  check_error(t, short, 422, 'wallet.insufficient_funds', 'airtime of 100 from 99.99');
  t.equal(await balance_kobo(server, account.key), 99_99, 'nothing was debited');
  await server.credit(account.id, 'test', 0.01);
  const exact = await buy_airtime(server, account.key, '08031234570', 100);
  check_created(t, exact, 'delivered', 'airtime of 100 from exactly 100');
  t.equal(kobo(exact.body.data.wallet_balance_after), 0, 'wallet_balance_after is 0');
  t.equal(await balance_kobo(server, account.key), 0, 'the wallet holds exactly 0');
  const orders = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(orders.body.data.pagination.total, 1, 'the refused purchase left no order behind');
});

t.test('a retry with the same idempotency key returns the first answer and debits once; another body is key_reused', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('airtime');
  const first = await buy_airtime(server, account.key, '08031234571', 200, {}, key);
  check_created(t, first, 'delivered', 'the first purchase');
  t.notOk(first.headers.get('idempotent-replayed'), 'the first answer is not marked as replayed');
  const again = await buy_airtime(server, account.key, '08031234571', 200, {}, key);
  t.equal(again.status, 201, 'the retry answers 201');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the retry is marked Idempotent-Replayed: true');
  t.same(again.body.data, first.body.data, 'the retry returns the first result, same reference');
  t.equal(await balance_kobo(server, account.key), 800_00, 'the wallet was debited once: 1,000 − 200');
  const other = await buy_airtime(server, account.key, '08031234571', 300, {}, key);
  check_error(t, other, 422, 'idempotency.key_reused', 'the same key with another amount');
  t.equal(await balance_kobo(server, account.key), 800_00, 'the reused key debited nothing');
  const orders = await server.api('GET', '/v1/transactions', { key: account.key });
  t.equal(orders.body.data.pagination.total, 1, 'there is one order');
});

t.test('a retry of a failed purchase with the same idempotency key replays the 422 and refunds nothing twice', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const key = idem('failed');
  const first = await buy_airtime(server, account.key, '08022222222', 250, {}, key);
  check_error(t, first, 422, 'transaction.failed', 'the purchase to the failing number');
  const again = await buy_airtime(server, account.key, '08022222222', 250, {}, key);
  t.equal(again.status, 422, 'the retry answers 422');
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the retry is a replay');
  t.equal(again.text, first.text, 'the retry is the first answer, with the same error.reference');
  const entries = await entries_of(server, account.key, first.body.error.reference);
  t.same(entries.map((e) => e.type), ['debit', 'reversal'], 'one debit and one reversal');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'the wallet is whole');
});

t.test('purchases need the services:purchase scope', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const reader = await server.create_key(account.id, { environment: 'test', scopes: ['wallet:read', 'transactions:read'] });
  const refused = await buy_airtime(server, reader.api_key, '08031234572', 100);
  check_error(t, refused, 403, 'auth.insufficient_scope', 'airtime with a read-only key');
  const buyer = await server.create_key(account.id, { environment: 'test', scopes: ['services:purchase'] });
  check_created(t, await buy_airtime(server, buyer.api_key, '08031234572', 100), 'delivered', 'airtime with a services:purchase key');
  t.equal(await balance_kobo(server, account.key), 900_00, 'only the allowed purchase debited');
});
