// The front end maps every refusal of the engine to exactly the API error answered before refusals were
// data (src/front/outcome-errors.ts): code, HTTP status, message, details, extra members and Retry-After.
// One row per kind; a kind of engine/refusal.ts without a row fails the test.
import t from 'tap';
import { refusal_error, refusal_reply } from '../src/front/outcome-errors.js';
import { refusal_kinds, type Refusal, type RefusalKind } from '../src/engine/refusal.js';
import { error_status, type ApiError } from '../src/errors.js';

interface Row {
  refusal: Refusal;
  error: ApiError;
  status: number;
}

const rows: Row[] = [
  {
    refusal: { refusal: 'amount_not_positive' },
    error: { code: 'validation.failed', message: 'amount must be greater than 0', details: [{ field: 'amount', message: 'must be greater than 0' }] },
    status: 400,
  },
  { refusal: { refusal: 'funding_reference_foreign' }, error: { code: 'idempotency.key_reused', message: 'This funding reference was already used for another account.' }, status: 422 },
  { refusal: { refusal: 'funding_reference_amount_differs' }, error: { code: 'idempotency.key_reused', message: 'This funding reference was already used with a different amount.' }, status: 422 },
  { refusal: { refusal: 'keys_limit_reached' }, error: { code: 'keys.limit_reached', message: undefined }, status: 422 },
  { refusal: { refusal: 'key_not_found' }, error: { code: 'keys.not_found', message: undefined }, status: 404 },
  {
    refusal: { refusal: 'password_locked', remaining_ms: 900_000 },
    error: { code: 'session.locked', message: 'Too many wrong passwords; sign-in is locked for 900 more second(s).', headers: { 'Retry-After': '900' } },
    status: 429,
  },
  { refusal: { refusal: 'password_incorrect' }, error: { code: 'session.invalid_credentials', message: undefined }, status: 401 },
  { refusal: { refusal: 'pin_not_set' }, error: { code: 'pin.not_set', message: undefined }, status: 403 },
  {
    refusal: { refusal: 'pin_locked', remaining_ms: 1_799_001 },
    error: { code: 'pin.locked', message: 'Too many wrong PIN attempts; purchases are locked for 1800 more second(s).', headers: { 'Retry-After': '1800' } },
    status: 429,
  },
  { refusal: { refusal: 'pin_incorrect', attempts_left: 3 }, error: { code: 'pin.incorrect', message: 'Wrong transaction PIN; 3 attempt(s) left before purchases are locked.' }, status: 403 },
  {
    refusal: { refusal: 'pin_check_busy' },
    error: { code: 'rate_limit.exceeded', message: 'Too many transaction PINs are being checked; retry in 1 second(s).', headers: { 'Retry-After': '1' } },
    status: 429,
  },
  { refusal: { refusal: 'email_taken' }, error: { code: 'account.email_taken', message: undefined }, status: 409 },
  {
    refusal: { refusal: 'duplicate_client_reference', client_reference: 'INV-7', reference: 'BV-20260302-ABC' },
    error: { code: 'transaction.duplicate_reference', message: 'client_reference "INV-7" already names order BV-20260302-ABC; nothing was debited.', extra: { reference: 'BV-20260302-ABC' } },
    status: 409,
  },
  {
    refusal: { refusal: 'daily_limit_exceeded', limit_kobo: 50_000_00, left_kobo: 1_234_56 },
    error: { code: 'wallet.limit_exceeded', message: 'Daily wallet limit of NGN 50,000.00 exceeded; NGN 1,234.56 left today (Africa/Lagos day).' },
    status: 422,
  },
  {
    refusal: { refusal: 'insufficient_funds', balance_kobo: 99_99, charged_kobo: 100_00 },
    error: { code: 'wallet.insufficient_funds', message: 'Wallet balance NGN 99.99 is below NGN 100.00.' },
    status: 422,
  },
  {
    refusal: { refusal: 'open_orders_full' },
    error: { code: 'service.unavailable', message: 'Too many orders of this account are still open; retry shortly.', headers: { 'Retry-After': '5' } },
    status: 503,
  },
  { refusal: { refusal: 'order_not_open' }, error: { code: 'transaction.not_found', message: 'No open order with this reference.' }, status: 404 },
  {
    refusal: { refusal: 'order_not_cancellable', status: 'processing' },
    error: { code: 'transaction.not_cancellable', message: 'Only an item of a bulk order still waiting to be sent can be cancelled; this order is processing.' },
    status: 409,
  },
  { refusal: { refusal: 'key_revoked' }, error: { code: 'auth.key_not_found', message: undefined }, status: 401 },
  { refusal: { refusal: 'key_expired' }, error: { code: 'auth.key_expired', message: undefined }, status: 401 },
  { refusal: { refusal: 'key_ip_not_allowed', remote_ip: '10.1.2.3' }, error: { code: 'auth.ip_not_allowed', message: 'Requests from 10.1.2.3 are not allowed for this key.' }, status: 403 },
  { refusal: { refusal: 'key_scope_missing', scope: 'services:purchase' }, error: { code: 'auth.insufficient_scope', message: 'This API key lacks the "services:purchase" scope.' }, status: 403 },
  { refusal: { refusal: 'session_ended' }, error: { code: 'session.required', message: undefined }, status: 401 },
  { refusal: { refusal: 'account_suspended' }, error: { code: 'account.suspended', message: undefined }, status: 403 },
  { refusal: { refusal: 'agent_closed' }, error: { code: 'agents.closed', message: undefined }, status: 409 },
  {
    refusal: { refusal: 'agent_not_closable', reason: 'agents', count: 2 },
    error: { code: 'agents.not_closable', message: 'The agent still has 2 open agent(s) of its own; close them first.' },
    status: 409,
  },
  {
    refusal: { refusal: 'transfer_reference_differs' },
    error: { code: 'idempotency.key_reused', message: 'This transfer reference was already used for a different transfer.' },
    status: 422,
  },
];

t.test('every refusal kind has a row', async (t) => {
  const covered = new Set<RefusalKind>(rows.map((row) => row.refusal.refusal));
  for (const kind of refusal_kinds) t.ok(covered.has(kind), `the kind ${kind} has a row`);
  t.equal(rows.length, refusal_kinds.length, 'one row per kind, no more');
});

t.test('each refusal maps to its API error, status and headers', async (t) => {
  for (const row of rows) {
    const error = refusal_error(row.refusal);
    t.strictSame(error, row.error, `${row.refusal.refusal} is ${row.error.code} with its message, details, extra members and headers`);
    t.equal(error_status(error.code), row.status, `${row.refusal.refusal} answers ${row.status}`);
    const reply = refusal_reply('req_table', row.refusal);
    t.equal(reply.status, row.status, `${row.refusal.refusal}'s reply has status ${row.status}`);
    t.strictSame(reply.headers, Object.entries(row.error.headers ?? {}), `${row.refusal.refusal}'s reply carries ${row.error.headers ? 'Retry-After' : 'no extra header'}`);
  }
});

t.test('the lock messages round up to whole seconds, at least one', async (t) => {
  const seconds = (remaining_ms: number) => refusal_error({ refusal: 'pin_locked', remaining_ms }).headers?.['Retry-After'];
  t.equal(seconds(1), '1', '1 ms left is 1 second');
  t.equal(seconds(0), '1', 'nothing left still says 1 second');
  t.equal(seconds(1_000), '1', 'exactly 1 s is 1 second');
  t.equal(seconds(1_001), '2', '1,001 ms rounds up to 2 seconds');
  t.equal(refusal_error({ refusal: 'daily_limit_exceeded', limit_kobo: 0, left_kobo: 0 }).message, 'This account\'s KYC level does not allow purchases; ask for a KYC upgrade.', 'a limit of 0 says the KYC level allows no purchase');
});
