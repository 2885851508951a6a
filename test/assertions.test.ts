// Record invariants as functions (docs/style.md "Shape of the code"): each record kind is checked before it is
// staged and when it is read back, and a broken one throws AssertionError, which the front end turns into
// a 500 and an exit (recovery restores what was durable). One row per record kind and broken field.
import t from 'tap';
import { AssertionError, assert, fail } from '../src/lib/assert.js';
import { assert_idempotency_record, assert_key, type IdempotencyRecord, type KeyRecord } from '../src/engine/records.js';
import { assert_delivery, assert_endpoint, assert_event, assert_feed_event, type DeliveryRecord, type EndpointRecord, type EventRecord } from '../src/webhooks/records.js';
import type { FeedEvent } from '../src/webhooks/records.js';
import { assert_order, type OrderRecord } from '../src/services/order.js';

const key: KeyRecord = {
  id: 1, account_id: 1, name: 'k', environment: 'test', key_hash: 'a'.repeat(64), key_hint: 'bv_test_…abcd', scopes: ['*'],
  ip_allowlist: [], rate_limit_per_minute: 60, created_us: 10, expires_ms: null, last_used_us: null, revoked_us: null,
};
const record: IdempotencyRecord = {
  fingerprint: 'f', status: 201, body: '{"success":true}', sealed: false, headers: [], created_ms: 1, expires_ms: 2, reference: null, complete: true,
};
const endpoint: EndpointRecord = {
  id: 1, account_id: 1, environment: 'test', url: 'https://example.ng/h', events: ['wallet.credited'], description: '',
  secret_sealed: 'sealed-bytes', secret_hint: 'whsec_…abcd', enabled: true, disabled_reason: null, created_us: 1, updated_us: 1, deleted_us: null,
} as EndpointRecord;
const delivery: DeliveryRecord = {
  id: 1, endpoint_id: 1, account_id: 1, environment: 'test', event_id: 'evt_x', kind: 'wallet.credited', status: 'pending',
  series: 1, failures: 0, next_attempt_ms: 5, attempts: [], created_us: 1, updated_us: 1,
};
const event: EventRecord = {
  id: 'evt_0000000100000000000000ab', kind: 'wallet.credited', account_id: 1, environment: 'test', created_us: 1, body: '{"event":"wallet.credited"}',
};
const feed_event: FeedEvent = { id: event.id, kind: 'wallet.credited', created_us: 1, body: event.body };

t.test('assert and fail throw AssertionError, recognised by its class', async (t) => {
  t.doesNotThrow(() => assert(true, 'holds'), 'a condition that holds passes');
  t.throws(() => assert(false, 'x broke'), new AssertionError('x broke'), 'a broken condition throws AssertionError');
  t.throws(() => fail('unreachable'), { name: 'AssertionError', message: 'assertion failed: unreachable' }, 'fail names what broke');
});

const rows: [string, () => void][] = [
  ['a key stored as its secret, not a hash', () => assert_key({ ...key, key_hash: 'bv_test_secret' })],
  ['a key without scopes', () => assert_key({ ...key, scopes: [] })],
  ['a key with a zero rate limit', () => assert_key({ ...key, rate_limit_per_minute: 0 })],
  ['a key revoked before it was created', () => assert_key({ ...key, revoked_us: 5 })],
  ['a complete idempotency record with status 0', () => assert_idempotency_record({ ...record, status: 0 })],
  ['an incomplete idempotency record with a status', () => assert_idempotency_record({ ...record, complete: false, reference: 'BV-20261124-0000000000AB' })],
  ['an incomplete idempotency record naming no order', () => assert_idempotency_record({ ...record, complete: false, status: 0 })],
  ['an idempotency record that expires when it is made', () => assert_idempotency_record({ ...record, expires_ms: 1 })],
  ['an unsealed idempotency record that is not JSON', () => assert_idempotency_record({ ...record, body: 'bv_live_secret' })],
  ['an endpoint whose secret is stored in the clear', () => assert_endpoint({ ...endpoint, secret_sealed: 'whsec_abc' })],
  ['an endpoint with no event kinds', () => assert_endpoint({ ...endpoint, events: [] })],
  ['an endpoint deleted but enabled', () => assert_endpoint({ ...endpoint, deleted_us: 2 })],
  ['a delivery with an unknown status', () => assert_delivery({ ...delivery, status: 'lost' as DeliveryRecord['status'] })],
  ['a delivery with negative failures', () => assert_delivery({ ...delivery, failures: -1 })],
  ['an event without its public id', () => assert_event({ ...event, id: '' })],
  ['an event of an unknown kind', () => assert_event({ ...event, kind: 'wallet.stolen' as EventRecord['kind'] })],
  ['an event of no account', () => assert_event({ ...event, account_id: 0 })],
  ['an event of an unknown environment', () => assert_event({ ...event, environment: 'staging' as EventRecord['environment'] })],
  ['an event whose body is not a JSON object', () => assert_event({ ...event, body: 'wallet.credited' })],
  ['a feed event without its public id', () => assert_feed_event({ ...feed_event, id: '1' })],
  ['a feed event of the test kind, which the feed never holds', () => assert_feed_event({ ...feed_event, kind: 'webhook.test' as FeedEvent['kind'] })],
  ['a feed event whose body is cut short', () => assert_feed_event({ ...feed_event, body: '{"event":"wallet.cre' })],
  // Regression: a local helper named like the assertion called itself and overflowed the stack instead.
  ['an order with a negative amount', () => assert_order({ reference: 'BV-20261124-0000000000AB', amount_kobo: -1, reversed: false, status: 'pending', delivered_us: null, wallet_balance_before_kobo: 0, wallet_balance_after_kobo: 1 } as OrderRecord)],
  ['an order reversed but not failed', () => assert_order({ reference: 'BV-20261124-0000000000AB', amount_kobo: 100, reversed: true, status: 'delivered', delivered_us: 1, wallet_balance_before_kobo: 100, wallet_balance_after_kobo: 0 } as OrderRecord)],
];

t.test('each record kind refuses what breaks its invariants', async (t) => {
  t.doesNotThrow(() => assert_key(key), 'a sound key passes');
  t.doesNotThrow(() => assert_idempotency_record(record), 'a sound idempotency record passes');
  t.doesNotThrow(() => assert_idempotency_record({ ...record, status: 0, body: '{}', complete: false, reference: 'BV-20261124-0000000000AB' }), 'a purchase\'s placeholder record (status 0, incomplete) passes');
  t.doesNotThrow(() => assert_endpoint(endpoint), 'a sound endpoint passes');
  t.doesNotThrow(() => assert_delivery(delivery), 'a sound delivery passes');
  t.doesNotThrow(() => assert_event(event), 'a sound event passes');
  t.doesNotThrow(() => assert_event({ ...event, kind: 'webhook.test' }), 'a test event passes');
  t.doesNotThrow(() => assert_feed_event(feed_event), 'a sound feed event passes');
  for (const [what, check] of rows) t.throws(check, AssertionError, `${what} is an AssertionError`);
});
