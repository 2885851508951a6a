// Transaction references that name their order's place (src/services/references.ts): every place that
// fits round-trips, distinct places give distinct references, random references never decode to a
// place, and a reference says nothing readable about the account or the count. Through the server,
// orders are found by their references, also in a store that holds indexed references from before.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open_store, start_server } from './helpers/server.js';
import { crypto_random } from '../src/lib/random.js';
import { all_orders, buy_airtime, fast_reseller, order, reference_pattern, sandbox } from './helpers/purchases.js';
import { account_id_limit, random_reference_code, ReferenceCodec, seq_limit, type OrderPlace } from '../src/services/references.js';

const crockford_12 = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/;

t.test('places at the edges of what fits round-trip, in both environments', async (t) => {
  const codec = new ReferenceCodec(randomBytes(32));
  for (const environment of ['live', 'test'] as const) {
    for (const account_id of [1, 2, 1000, account_id_limit - 1]) {
      for (const seq of [1, 2, 2 ** 30 - 1, 2 ** 30, 2 ** 31, seq_limit - 1]) {
        const place = { account_id, environment, seq };
        const code = codec.encode(place);
        t.match(code, crockford_12, `${account_id}/${environment}/${seq}: 12 Crockford characters`);
        t.ok(code.charCodeAt(0) < 'G'.charCodeAt(0), `${account_id}/${environment}/${seq}: the first character carries the kind bit 0`);
        t.same(codec.decode(code), place, `${account_id}/${environment}/${seq}: decodes to its place`);
      }
    }
  }
});

t.test('places that do not fit are refused, one past each edge', async (t) => {
  const fits = (account_id: number, seq: number) => ReferenceCodec.fits({ account_id, environment: 'live', seq });
  t.ok(fits(account_id_limit - 1, seq_limit - 1), 'the last account id and seq fit');
  t.notOk(fits(account_id_limit, 1), `account id ${account_id_limit} does not fit`);
  t.notOk(fits(1, seq_limit), `seq ${seq_limit} does not fit`);
  t.notOk(fits(0, 1), 'account id 0 does not fit');
  t.notOk(fits(1, 0), 'seq 0 does not fit');
  t.notOk(fits(1.5, 1), 'a fractional account id does not fit');
  const codec = new ReferenceCodec(randomBytes(32));
  t.throws(() => codec.encode({ account_id: account_id_limit, environment: 'live', seq: 1 }), /assertion failed/, 'encoding one is an assertion');
});

t.test('100,000 consecutive orders of neighbouring accounts get distinct references that do not count up', async (t) => {
  const codec = new ReferenceCodec(randomBytes(32));
  const seen = new Map<string, string>();
  let collisions = 0;
  let shared_prefixes = 0;
  let previous = '';
  for (let account_id = 1; account_id <= 10; account_id++) {
    for (const environment of ['live', 'test'] as const) {
      for (let seq = 1; seq <= 5_000; seq++) {
        const code = codec.encode({ account_id, environment, seq });
        if (seen.has(code)) collisions++;
        seen.set(code, `${account_id}/${environment}/${seq}`);
        if (code.slice(0, 6) === previous.slice(0, 6)) shared_prefixes++;
        previous = code;
      }
    }
  }
  t.equal(seen.size, 100_000, 'all 100,000 references are distinct');
  t.equal(collisions, 0, 'no collision');
  // Six shared leading characters between neighbours would mean the high half barely changes with seq.
  t.ok(shared_prefixes < 10, `consecutive orders rarely share their first six characters (${shared_prefixes} of 100,000)`);
});

t.test('the permutation depends on the store secret', async (t) => {
  const place: OrderPlace = { account_id: 7, environment: 'live', seq: 42 };
  const a = new ReferenceCodec(randomBytes(32));
  const b = new ReferenceCodec(randomBytes(32));
  t.not(a.encode(place), b.encode(place), 'two stores give the same order different references');
  const wrong = b.decode(a.encode(place));
  t.notSame(wrong, place, 'another store does not read the place back');
  t.throws(() => new ReferenceCodec(randomBytes(16)), /assertion failed/, 'a short secret is refused');
});

t.test('random references carry the kind bit 1 and never decode to a place; malformed codes do not either', async (t) => {
  const codec = new ReferenceCodec(randomBytes(32));
  for (let i = 0; i < 10_000; i++) {
    const code = random_reference_code(crypto_random);
    if (!crockford_12.test(code)) t.fail(`random code ${code} is not 12 Crockford characters`);
    if (codec.decode(code) !== null) t.fail(`random code ${code} decoded to a place`);
  }
  t.pass('10,000 random codes: 12 Crockford characters each, none decodes');
  for (const bad of ['', '0000000000', '0000000000000', '00000000000I', '00000000000u', 'GZZZZZZZZZZZ']) {
    t.equal(codec.decode(bad), null, `"${bad}" decodes to nothing`);
  }
});

t.test('a whole reference names its place; other shapes name none', async (t) => {
  const codec = new ReferenceCodec(randomBytes(32));
  const place: OrderPlace = { account_id: 42, environment: 'test', seq: 7 };
  const reference = codec.reference('20261122', place);
  t.match(reference, reference_pattern, `${reference} has the BV shape`);
  t.same(codec.place_of(reference), place, 'and names its place');
  const code = reference.slice(12);
  for (const bad of [code, `XX-20261122-${code}`, `BV-2026112-${code}`, `BV-20261122-${code}0`, `BV-20261122-${code.slice(1)}`]) {
    t.equal(codec.place_of(bad), null, `"${bad}" names no place`);
  }
});

t.test('through the server: references name their orders, and a store with indexed (older) references still finds them', async (t) => {
  const server = await start_server(t, { keep_data: true });
  t.teardown(() => rmSync(server.data_dir, { recursive: true, force: true }));
  const reseller = await fast_reseller(server);
  const first = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
  t.equal(first.status, 201, 'the first purchase is delivered');
  const first_reference: string = first.body.data.reference;
  t.match(first_reference, reference_pattern, 'its reference has the BV shape');
  const second = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
  t.not(second.body.data.reference, first_reference, 'the second purchase has another reference');
  t.equal((await order(server, reseller.key, first_reference)).reference, first_reference, 'the first order is found by its reference');
  const stranger = await fast_reseller(server);
  const across = await server.api('GET', `/v1/transactions/${first_reference}`, { key: stranger.key });
  t.equal(across.status, 404, "another account does not find the order by its reference");
  t.equal(across.body?.error?.code, 'transaction.not_found', 'and is told transaction.not_found');
  await server.stop();

  // Make the first order look like one from before references named their place: a random reference
  // and an entry in the order_refs index, as older stores hold.
  const legacy_reference = `BV-20251231-${random_reference_code(crypto_random)}`;
  const legacy_looking = `BV-20251231-${'0'.repeat(11)}1`;
  const { root, db } = open_store(server.data_dir);
  try {
    const orders = db('orders');
    const order_refs = db('order_refs');
    const location = [reseller.id, 'test', 1];
    const stored = orders.get(location) as Record<string, unknown>;
    t.equal(stored.reference, first_reference, 'the store holds the first order at seq 1');
    t.equal(order_refs.get(first_reference), undefined, 'a constructed reference has no index entry');
    await orders.put(location, { ...stored, reference: legacy_reference });
    await order_refs.put(legacy_reference, location);
    // An indexed reference that decodes to a place (the kind bit 0, as half of older ones have).
    const second_stored = orders.get([reseller.id, 'test', 2]) as Record<string, unknown>;
    await orders.put([reseller.id, 'test', 2], { ...second_stored, reference: legacy_looking });
    await order_refs.put(legacy_looking, [reseller.id, 'test', 2]);
  } finally {
    await root.close();
  }

  await server.start();
  t.equal((await order(server, reseller.key, legacy_reference)).reference, legacy_reference, 'the indexed reference finds its order');
  t.equal((await order(server, reseller.key, legacy_looking)).status, 'delivered', 'an indexed reference that decodes to a place finds its order too');
  const gone = await server.api('GET', `/v1/transactions/${first_reference}`, { key: reseller.key });
  t.equal(gone.status, 404, 'the replaced reference no longer names an order');
  const third = await buy_airtime(server, reseller.key, sandbox.delivered, 100);
  t.equal(third.status, 201, 'a purchase in a store with indexed references is delivered');
  const third_reference: string = third.body.data.reference;
  t.notOk([legacy_reference, legacy_looking, first_reference].includes(third_reference), 'with a reference of its own');
  t.equal((await order(server, reseller.key, third_reference)).reference, third_reference, 'and is found by it');
  const references = (await all_orders(server, reseller.key)).map((o) => o.reference);
  t.same(references.sort(), [legacy_reference, legacy_looking, third_reference].sort(), 'the history lists the three orders, each once');
  await server.stop();
});
