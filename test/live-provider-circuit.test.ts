// The live adapter's circuit breaker (src/services/circuit-breaker.ts; docs/decisions.md "Transactions":
// when the provider is known to be down a purchase is refused before any debit with 503
// transaction.provider_unavailable, Retry-After 60). Five consecutive connection failures open the
// circuit for 60 s (scaled); then one call probes, and a success closes it. The fake upstream stops
// listening to refuse connections, and listens again on the same port.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';
import { start_upstream } from './helpers/fake-upstream.js';
import { wait_for } from './helpers/fixtures-http.js';
import { balance_kobo, buy, buy_airtime, check_created, check_error, electricity_body, entries_of, settled_order, warm_up_live } from './helpers/purchases.js';

async function live_reseller(s: TestServer, live_ngn: number) {
  const account = await s.create_account();
  const live = await s.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  if (live_ngn > 0) await s.credit(account.id, 'live', live_ngn);
  return { ...account, key: live.api_key };
}

// TIME_SCALE=0.03: the circuit stays open 60 s × 0.03 = 1.8 s; re-queries after 0.9, 1.8, 3.6, then every
// 9 s; the "no such request" grace is 3.6 s; the purchase's wait 150 ms.
t.test('when the upstream refuses connections the circuit opens: purchases are refused before any debit, then it closes again', async (t) => {
  const upstream = await start_upstream(t);
  const server = await start_server(t, { env: { TIME_SCALE: '0.03', ...upstream.env(200) } });
  const account = await live_reseller(server, 10_000);
  await warm_up_live(server, account.key);
  await upstream.refuse();

  // Five purchases at once: each is debited (the circuit is still closed), then each payment fails to
  // connect; five consecutive failures open the circuit.
  const first_five = await Promise.all([0, 1, 2, 3, 4].map((i) => buy_airtime(server, account.key, `0816000020${i}`, 100)));
  const refused: string[] = [];
  for (const [i, response] of first_five.entries()) {
    check_created(t, response, 'processing', `purchase ${i + 1} while the upstream refuses connections`);
    refused.push(response.body.data.reference);
  }
  t.equal(await balance_kobo(server, account.key), 9_500_00, 'the five purchases were debited: their outcome is unknown');
  await wait_for(() => server.logs.some((line) => line.includes('"circuit":"open"')), 5_000, 'the circuit to open');

  const sixth_key = 'circuit-sixth';
  const sixth = await buy_airtime(server, account.key, '08160000210', 100, {}, sixth_key);
  check_error(t, sixth, 503, 'transaction.provider_unavailable', 'a purchase while the circuit is open');
  t.equal(sixth.headers.get('retry-after'), '60', 'Retry-After is 60');
  check_error(t, await buy(server, account.key, '/v1/services/electricity', electricity_body('4501001239201', 500)), 503, 'transaction.provider_unavailable', 'an electricity payment while the circuit is open');
  check_error(t, await server.api('POST', '/v1/services/tv/verify', { key: account.key, body: { provider: 'dstv', smartcard_number: '7012349201' } }), 503, 'transaction.provider_unavailable', 'a smartcard verification while the circuit is open');
  t.equal(await balance_kobo(server, account.key), 9_500_00, 'nothing was debited while the circuit was open');
  t.equal((await server.api('GET', '/v1/transactions', { key: account.key })).body.data.pagination.total, 5, 'no order was made while the circuit was open');

  await upstream.resume();
  await wait_for(() => server.logs.some((line) => line.includes('"circuit":"closed"')), 15_000, 'the circuit to close after its open period');
  // A 503 is not remembered (docs/decisions.md "Idempotency"): the same request with the same key now buys.
  const after = await buy_airtime(server, account.key, '08160000210', 100, {}, sixth_key);
  t.equal(after.status, 201, `the refused purchase retried with its key after the circuit closed is taken (${after.text.slice(0, 120)})`);
  t.notOk(after.headers.get('idempotent-replayed'), 'it is processed, not a replay of the 503');
  const delivered = await settled_order(server, account.key, after.body.data.reference, 15_000);
  t.equal(delivered.status, 'delivered', 'and delivered');
  t.equal(upstream.pays_for('08160000210').length, 1, 'the upstream was paid once for it');

  // The upstream never saw the five refused payments: re-queries say "no such request", and after the
  // grace period each is refunded, once. (While the circuit is half-open only one re-query probes; the
  // others wait for their next turn, so this can take a few rounds.)
  for (const reference of refused) {
    const record = await settled_order(server, account.key, reference, 40_000);
    t.equal(record.status, 'failed', `${reference} failed`);
    t.equal(record.reversed, true, `${reference} was refunded`);
    t.same((await entries_of(server, account.key, reference)).map((e) => e.type), ['debit', 'reversal'], `${reference}: one debit, one reversal`);
  }
  for (let i = 0; i < 5; i++) t.equal(upstream.pays_for(`0816000020${i}`).length, 0, `refused payment ${i + 1} never reached the upstream and was never re-sent`);
  t.equal(await balance_kobo(server, account.key), 9_900_00, 'the wallet paid only the delivered purchase');
  t.same(upstream.paid_twice(), [], 'no request_id was paid twice');
});
