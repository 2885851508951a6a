// The transaction PIN and the daily wallet limits (docs/spec.md section 5.8, section 7 pin.* and
// wallet.limit_exceeded; docs/decisions.md "Accounts, PIN, limits": 5 consecutive wrong PINs lock purchases
// for 30 minutes across both environments, a correct PIN resets the count; daily limits by KYC level
// 1: 50,000, 2: 200,000, 3: 5,000,000 NGN, level 0 cannot buy, refunds do not count, the operator's
// daily_limit replaces the level's). The lock's timing runs in this process on a manual clock.
import t, { type Test } from 'tap';
import { start_server } from './helpers/server.js';
import { start_in_process } from './helpers/in-process.js';
import { pin_lock_ms } from '../src/engine/account-actor.js';
import { balance_kobo, buy, buy_airtime, check_created, check_error, electricity_body, fast_reseller, idem, sandbox } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.002' } });

t.test('wrong PINs: the 4th is 403 pin.incorrect, the 5th already 429 pin.locked, the 6th locked even with the right PIN; the lock lifts at exactly 30 minutes', async (t) => {
  // On a manual clock (test/helpers/in-process.ts) the lock lasts its real 30 minutes and the test
  // moves to its edge: still locked one millisecond before, lifted at it.
  const on_clock = await start_in_process(t);
  const account = await fast_reseller(on_clock, 1_000);
  for (let attempt = 1; attempt <= 4; attempt++) {
    const response = await buy_airtime(on_clock, account.key, '08031234567', 100, { pin: '54321' });
    check_error(t, response, 403, 'pin.incorrect', `wrong PIN ${attempt}`);
  }
  const locked_at = on_clock.clock.now_ms();
  const fifth = await buy_airtime(on_clock, account.key, '08031234567', 100, { pin: '54321' });
  check_error(t, fifth, 429, 'pin.locked', 'wrong PIN 5');
  t.equal(fifth.headers.get('retry-after'), String(pin_lock_ms / 1000), 'the 5th answer carries Retry-After of the whole 30 minutes in seconds');
  const sixth = await buy_airtime(on_clock, account.key, '08031234567', 100);
  check_error(t, sixth, 429, 'pin.locked', 'the right PIN while locked');
  t.ok(sixth.headers.get('retry-after'), 'the 6th answer carries Retry-After');
  const wrong_sixth = await buy_airtime(on_clock, account.key, '08031234567', 100, { pin: '54321' });
  check_error(t, wrong_sixth, 429, 'pin.locked', 'a wrong PIN while locked');
  t.equal(await balance_kobo(on_clock, account.key), 1_000_00, 'nothing was debited while the PIN was wrong or locked');

  // The lock lasts the 30 minutes and then lifts by itself.
  on_clock.clock.advance(pin_lock_ms / 3);
  const a_third = await buy_airtime(on_clock, account.key, '08031234567', 100);
  check_error(t, a_third, 429, 'pin.locked', 'the right PIN a third into the lock');
  t.equal(a_third.headers.get('retry-after'), String((pin_lock_ms * 2) / 3 / 1000), 'with Retry-After counting the 20 minutes left');
  on_clock.clock.advance(locked_at + pin_lock_ms - 1 - on_clock.clock.now_ms());
  const last_moment = await buy_airtime(on_clock, account.key, '08031234567', 100);
  check_error(t, last_moment, 429, 'pin.locked', 'the right PIN one millisecond before the 30 minutes are over');
  t.equal(last_moment.headers.get('retry-after'), '1', 'with Retry-After rounded up to one second');
  on_clock.clock.advance(1);
  check_created(t, await buy_airtime(on_clock, account.key, '08031234567', 100), 'delivered', 'the right PIN at 30 minutes');
  t.equal(await balance_kobo(on_clock, account.key), 900_00, 'the purchase after the lock debited 100');
  // The count restarted with the lock: four wrong PINs are again only pin.incorrect.
  for (let attempt = 1; attempt <= 4; attempt++) {
    check_error(t, await buy_airtime(on_clock, account.key, '08031234567', 100, { pin: '00000' }), 403, 'pin.incorrect', `wrong PIN ${attempt} after the lock`);
  }
});

t.test('a correct PIN resets the count of wrong PINs', async (t) => {
  const account = await fast_reseller(server, 1_000);
  for (let attempt = 1; attempt <= 4; attempt++) {
    check_error(t, await buy_airtime(server, account.key, '08031234568', 50, { pin: '11111' }), 403, 'pin.incorrect', `wrong PIN ${attempt} of the first run`);
  }
  check_created(t, await buy_airtime(server, account.key, '08031234568', 50), 'delivered', 'the right PIN after 4 wrong ones');
  for (let attempt = 1; attempt <= 4; attempt++) {
    check_error(t, await buy_airtime(server, account.key, '08031234568', 50, { pin: '11111' }), 403, 'pin.incorrect', `wrong PIN ${attempt} of the second run`);
  }
  check_error(t, await buy_airtime(server, account.key, '08031234568', 50, { pin: '11111' }), 429, 'pin.locked', 'the 5th consecutive wrong PIN');
});

t.test('a retry of a wrong-PIN purchase under the same idempotency key is checked again: it is counted, and the 5th is pin.locked', async (t) => {
  // Idempotency remembers executions, not credentials (docs/decisions.md "Idempotency"): a wrong PIN
  // leaves the key unused, so each retry is a new PIN check and counts like one.
  const account = await fast_reseller(server, 1_000);
  const key = idem('wrong-pin');
  for (let attempt = 1; attempt <= 4; attempt++) {
    const again = await buy_airtime(server, account.key, '08031234577', 100, { pin: '13579' }, key);
    check_error(t, again, 403, 'pin.incorrect', `wrong PIN ${attempt} under the same key`);
    t.equal(again.headers.get('idempotent-replayed'), null, `wrong PIN ${attempt} is not a replay`);
    t.match(again.body?.error?.message, new RegExp(`${5 - attempt} attempt\\(s\\) left`), `wrong PIN ${attempt} counts`);
  }
  check_error(t, await buy_airtime(server, account.key, '08031234577', 100, { pin: '13579' }, key), 429, 'pin.locked', 'wrong PIN 5 under the same key');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'nothing was debited');
});

t.test('10 simultaneous wrong PINs: exactly 4 are pin.incorrect and 6 are pin.locked', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const responses = await Promise.all(Array.from({ length: 10 }, () => buy_airtime(server, account.key, '08031234578', 100, { pin: '86420' })));
  const codes = responses.map((r) => `${r.status} ${r.body?.error?.code}`);
  t.equal(codes.filter((c) => c === '403 pin.incorrect').length, 4, 'four answers are 403 pin.incorrect');
  t.equal(codes.filter((c) => c === '429 pin.locked').length, 6, 'six answers are 429 pin.locked');
  check_error(t, await buy_airtime(server, account.key, '08031234578', 100), 429, 'pin.locked', 'the right PIN afterwards');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'nothing was debited');
});

t.test('the PIN lock holds across both environments of the account', async (t) => {
  const account = await fast_reseller(server, 1_000);
  const live = await server.create_key(account.id, { environment: 'live', rate_limit_per_minute: 1_000_000 });
  await server.credit(account.id, 'live', 1_000);
  for (let attempt = 1; attempt <= 5; attempt++) await buy_airtime(server, account.key, '08031234569', 50, { pin: '99999' });
  const from_live = await buy_airtime(server, live.api_key, '08031234569', 50);
  check_error(t, from_live, 429, 'pin.locked', 'the live key after 5 wrong PINs with the test key');
  t.equal(await balance_kobo(server, live.api_key), 1_000_00, 'the live wallet was not touched');
});

t.test('an account without a PIN gets 403 pin.not_set until the operator sets one', async (t) => {
  const account = await fast_reseller(server, 1_000, { pin: undefined });
  const response = await buy_airtime(server, account.key, '08031234570', 100);
  check_error(t, response, 403, 'pin.not_set', 'a purchase without a PIN set');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'nothing was debited');
  for (let attempt = 1; attempt <= 6; attempt++) await buy_airtime(server, account.key, '08031234570', 100);
  check_error(t, await buy_airtime(server, account.key, '08031234570', 100), 403, 'pin.not_set', 'repeated attempts without a PIN never lock, they stay pin.not_set');
  const set = await server.admin('POST', `/admin/accounts/${account.id}/pin`, { pin: '24680' });
  t.equal(set.status, 200, 'the operator sets the PIN');
  check_error(t, await buy_airtime(server, account.key, '08031234570', 100), 403, 'pin.incorrect', 'a PIN other than the one set');
  check_created(t, await buy_airtime(server, account.key, '08031234570', 100, { pin: '24680' }), 'delivered', 'the PIN the operator set');
});

t.test('a PIN that is not 5 digits is a 400 validation error', async (t) => {
  const account = await fast_reseller(server, 1_000);
  for (const pin of ['1234', '123456', '12a45', 12345]) {
    const response = await buy_airtime(server, account.key, '08031234571', 100, { pin });
    check_error(t, response, 400, 'validation.failed', `PIN ${JSON.stringify(pin)}`);
    t.ok(response.body?.error?.details?.some((d: { field: string }) => d.field === 'pin'), `PIN ${JSON.stringify(pin)}: details name the pin`);
  }
});

// ---- Daily limits ----------------------------------------------------------------------------------

/**
 * Spends up to one kobo below the limit less `last_kobo`, then: a purchase one kobo over is refused, a
 * purchase landing exactly on the limit is bought, and after it nothing more.
 */
async function limit_edges(t: Test, key: string, limit_kobo: number, what: string) {
  // Electricity has no maximum, so one payment fills the day up to 500 NGN below the limit.
  const fill_kobo = limit_kobo - 500_00 - 1;
  const fill = await buy(server, key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, fill_kobo / 100));
  check_created(t, fill, 'delivered', `${what}: a payment of the limit − 500.01`);
  const over = await buy(server, key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 500.02));
  check_error(t, over, 422, 'wallet.limit_exceeded', `${what}: a payment landing one kobo over the limit`);
  const exact = await buy(server, key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 500.01));
  check_created(t, exact, 'delivered', `${what}: a payment landing exactly on the limit`);
  check_error(t, await buy_airtime(server, key, '08031234572', 50), 422, 'wallet.limit_exceeded', `${what}: any purchase once the limit is reached`);
}

t.test('each KYC level\'s daily limit admits a purchase landing exactly on it and refuses one kobo over', async (t) => {
  const rows: [number, number][] = [[1, 50_000], [2, 200_000], [3, 5_000_000]];
  for (const [kyc_level, limit] of rows) {
    const account = await fast_reseller(server, limit + 10_000, { kyc_level });
    await limit_edges(t, account.key, limit * 100, `KYC level ${kyc_level}`);
    t.equal(await balance_kobo(server, account.key), 10_000_00, `KYC level ${kyc_level}: exactly the limit was spent`);
  }
});

t.test('KYC level 0 cannot buy at all', async (t) => {
  const account = await fast_reseller(server, 1_000, { kyc_level: 0 });
  check_error(t, await buy_airtime(server, account.key, '08031234573', 50), 422, 'wallet.limit_exceeded', 'airtime of 50 at KYC level 0');
  t.equal(await balance_kobo(server, account.key), 1_000_00, 'nothing was debited');
  const raised = await server.admin('PATCH', `/admin/accounts/${account.id}`, { kyc_level: 1 });
  t.equal(raised.status, 200, 'the operator raises the KYC level to 1');
  check_created(t, await buy_airtime(server, account.key, '08031234573', 50), 'delivered', 'the same purchase at KYC level 1');
});

t.test('the operator\'s daily_limit replaces the level\'s, lower or higher, and null restores it', async (t) => {
  const account = await fast_reseller(server, 80_000, { kyc_level: 1 });
  const lower = await server.admin('PATCH', `/admin/accounts/${account.id}`, { daily_limit: 1_000 });
  t.equal(lower.status, 200, 'the operator sets a daily limit of 1,000');
  t.equal(lower.body.data.daily_limit, 1_000, 'the operator answer shows the limit');
  check_created(t, await buy_airtime(server, account.key, '08031234574', 999.99), 'delivered', 'airtime of 999.99 under a limit of 1,000');
  check_error(t, await buy_airtime(server, account.key, '08031234574', 50), 422, 'wallet.limit_exceeded', 'airtime of 50 past the 1,000 limit');

  const higher = await server.admin('PATCH', `/admin/accounts/${account.id}`, { daily_limit: 70_000 });
  t.equal(higher.status, 200, 'the operator sets a daily limit of 70,000, above level 1\'s 50,000');
  const big = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 60_000));
  check_created(t, big, 'delivered', 'a payment taking the day to 60,999.99, past level 1\'s limit');
  const over = await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 9_000.02));
  check_error(t, over, 422, 'wallet.limit_exceeded', 'a payment landing one kobo over the operator\'s 70,000');
  check_created(t, await buy(server, account.key, '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 9_000.01)), 'delivered', 'a payment landing exactly on the operator\'s 70,000');

  const restored = await server.admin('PATCH', `/admin/accounts/${account.id}`, { daily_limit: null });
  t.equal(restored.status, 200, 'the operator removes the account\'s own limit');
  t.equal(restored.body.data.daily_limit, null, 'the operator answer shows no own limit');
  check_error(t, await buy_airtime(server, account.key, '08031234574', 50), 422, 'wallet.limit_exceeded', 'level 1\'s 50,000 applies again and is already passed');
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'exactly 70,000 was spent');
});

t.test('refunded purchases do not count toward the daily limit', async (t) => {
  const account = await fast_reseller(server, 60_000, { kyc_level: 1 });
  const failed = await buy_airtime(server, account.key, sandbox.failed, 50_000);
  check_error(t, failed, 422, 'transaction.failed', 'airtime of 50,000 to the failing number');
  check_created(t, await buy_airtime(server, account.key, '08031234575', 50_000), 'delivered', 'airtime of 50,000 after the refund, exactly the limit');
  check_error(t, await buy_airtime(server, account.key, '08031234575', 50), 422, 'wallet.limit_exceeded', 'one more purchase after the limit');
  t.equal(await balance_kobo(server, account.key), 10_000_00, 'the wallet paid exactly 50,000');
});
