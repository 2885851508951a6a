// The dashboard's per-session and per-account rate limit (docs/api.md "Dashboard and documentation",
// docs/operations.md "Dashboard rate limit"): changes and costly reads take tokens from a bucket per
// session (10, refilled 60 a minute) and per account (20, refilled 120 a minute), then 429
// rate_limit.exceeded with Retry-After. A session had no limit
// (second hostile review, row 1: 100-300 PIN changes at once from one session). Plain reads are not
// counted, a refused call takes from neither window, and other accounts are untouched.
import t from 'tap';
import { start_server, type TestServer } from './helpers/server.js';

/** docs/api.md: a session's bucket holds 10 and refills 60 a minute; an account's 20 and 120 a minute. */
const session_burst = 10;
const session_per_s = 1;
const account_burst = 20;
const account_per_s = 2;

// The defaults, which the test server raises for every other test.
const server = await start_server(t, { env: { LOG_LEVEL: 'warn', DASHBOARD_SESSION_BURST_MAX: '10', DASHBOARD_ACCOUNT_BURST_MAX: '20', DASHBOARD_SESSION_PER_MINUTE_MAX: '60', DASHBOARD_ACCOUNT_PER_MINUTE_MAX: '120' } });

async function sign_in(target: TestServer, account: { email: string; password: string }) {
  const response = await target.request('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  if (response.status !== 201) throw new Error(`sign-in: ${response.status} ${response.text}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = response.body.data.csrf_token as string;
  return (method: string, path: string, body?: unknown) => target.request(method, path, { body, headers: { cookie, 'x-csrf-token': csrf } });
}

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

t.test('a session gets 10 changes at once and 1 a second, its account 20 and 2 a second over all sessions, then 429 with Retry-After', async (t) => {
  const owner = await server.reseller(1000);
  const first = await sign_in(server, owner);
  // A cheap change: revoking a key that does not exist (404) still counts, as any change does.
  const change = (as: typeof first) => as('DELETE', '/dashboard/api/keys/999999');
  const started = performance.now();
  const burst = await Promise.all(Array.from({ length: session_burst + 5 }, () => change(first)));
  const elapsed_s = (performance.now() - started) / 1000;
  const counts = statuses(burst);
  t.ok((counts[404] ?? 0) >= session_burst && (counts[404] ?? 0) <= session_burst + Math.ceil(elapsed_s * session_per_s), `${session_burst} changes at once are taken, and no more than the refill since (${JSON.stringify(counts)} in ${elapsed_s.toFixed(2)} s)`);
  t.ok((counts[429] ?? 0) >= 1, 'the rest are refused 429');
  const refused = burst.find((answer) => answer.status === 429)!;
  t.equal(refused.body?.error?.code, 'rate_limit.exceeded', 'with rate_limit.exceeded');
  t.equal(refused.headers.get('retry-after'), '1', 'and Retry-After: 1, when the next token is due');
  t.match(refused.body.error.message, /60 dashboard changes and exports per minute \(10 at once\) for this session/, `the message names the limit (${refused.body.error.message})`);
  t.equal((await first('GET', '/dashboard/api/overview?environment=test')).status, 200, 'a plain read is not counted');
  const costly = await Promise.all([
    first('POST', '/dashboard/api/pin', { new_pin: '54321', current_pin: owner.pin }),
    first('GET', '/dashboard/api/export/orders?environment=test'),
    first('GET', '/dashboard/api/export/wallet?environment=test'),
    first('GET', '/dashboard/api/trend?environment=test'),
    change(first),
  ]);
  t.ok(costly.filter((answer) => answer.status === 429).length >= 3, `PIN changes, exports and the trend take from the same bucket (${costly.map((a) => a.status).join(', ')})`);
  const signed_out = await sign_in(server, owner);
  for (let i = 0; i < 12; i++) await change(signed_out);
  t.equal((await signed_out('DELETE', '/dashboard/api/session')).status, 200, 'signing out is never refused, even with the bucket empty');
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.equal((await change(first)).status, 404, 'after Retry-After, the session may change again');

  // The account's bucket: two more sessions, all at once.
  const second = await sign_in(server, owner);
  const third = await sign_in(server, owner);
  const since_first_s = (performance.now() - started) / 1000;
  const both = await Promise.all([...Array.from({ length: session_burst }, () => change(second)), ...Array.from({ length: session_burst }, () => change(third))]);
  const taken = both.filter((answer) => answer.status === 404).length;
  t.ok(taken <= account_burst + Math.ceil(since_first_s * account_per_s) + 2 - (counts[404] ?? 0), `the account's sessions together stay within its bucket (${taken} of ${both.length} taken, ${since_first_s.toFixed(1)} s after the first burst)`);
  const by_account = both.find((answer) => answer.status === 429);
  t.match(by_account?.body?.error?.message ?? '', /120 dashboard changes and exports per minute \(20 at once\) for this account/, 'a new session of the same account buys nothing more: the account\'s limit');
  t.ok(Number(by_account?.headers.get('retry-after')) >= 1, 'with Retry-After');

  const other = await server.reseller(1000);
  const theirs = await sign_in(server, other);
  t.equal((await change(theirs)).status, 404, 'another account\'s session is not limited by this one');

  const metrics = (await server.admin('GET', '/metrics')).text;
  const refusals = Number(/^billvend_dashboard_rate_limited_total (\S+)$/m.exec(metrics)?.[1]);
  t.ok(refusals >= 6, `the refusals are counted in /metrics (${refusals})`);
});
