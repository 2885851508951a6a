// One parser reads the order lists' filters (src/front/order-query.ts): the API's history and export
// (docs/api.md "History filters") and the dashboard's orders list and export, each under its own names and
// words. Each row is a query and the refusal it gets (or none) on both lists: what the two parsers did apart.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { buy_airtime, fast_reseller, sandbox } from './helpers/purchases.js';

const server = await start_server(t);
const account = await fast_reseller(server, 10_000);
const bought = await buy_airtime(server, account.key, sandbox.delivered, 100, { pin: account.pin });
if (bought.status !== 201) throw new Error(`purchase: ${bought.status} ${bought.text}`);
const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
if (signed_in.status !== 201) throw new Error(`sign-in: ${signed_in.status} ${signed_in.text}`);
const cookie = (signed_in.headers.get('set-cookie') ?? '').split(';')[0]!;

const api = (query: string) => server.api('GET', `/v1/transactions?${query}`, { key: account.key });
const dashboard = (query: string) => server.api('GET', `/dashboard/api/orders?environment=test&${query}`, { headers: { cookie } });
const types = 'airtime, data, electricity, tv, education, internet, showmax or international';
const date_rule = 'must be a date YYYY-MM-DD that exists, from 1970 to 2100';

/** [what, query, the API's refusal as [field, message] or the orders found, the dashboard's the same]. */
const rows: [string, string, [string, string] | number, [string, string] | number][] = [
  ['no filter', '', 1, 1],
  ['status successful: the API\'s word for delivered, not the dashboard\'s', 'status=successful', 1, ['status', 'must be pending, processing, delivered or failed']],
  ['status delivered', 'status=delivered', 1, 1],
  ['an unknown status', 'status=done', ['status', 'must be pending, processing, successful (or delivered, the same) or failed'], ['status', 'must be pending, processing, delivered or failed']],
  ['the API\'s service_type', 'service_type=tv', 0, 1],
  ['the dashboard\'s service', 'service=tv', 1, 0],
  ['an unknown service_type', 'service_type=gas', ['service_type', `must be ${types}`], 1],
  ['an unknown service', 'service=gas', 1, ['service', `must be ${types}`]],
  ['a bad recipient (the API\'s exact filter)', 'recipient=12', ['recipient', 'must be a phone, meter or smartcard number of 10 to 13 digits'], 1],
  ['a timestamp: the API\'s instant, not a dashboard date', 'from=2026-01-01T00:00:00Z', 1, ['from', date_rule]],
  ['a date that does not exist', 'to=2026-02-30', ['to', 'must be a date YYYY-MM-DD (an Africa/Lagos day) or an ISO 8601 timestamp such as 2026-11-24T09:30:00Z'], ['to', date_rule]],
  ['to before from: refused by the API, nothing found by the dashboard', 'from=2026-01-02&to=2026-01-01', ['to', 'must not be before from'], 0],
  ['a search text too long (the dashboard\'s q)', `q=${'9'.repeat(65)}`, 1, ['q', 'must be a reference or a number of at most 64 characters']],
];

t.test('the API and the dashboard read their order filters as before, each with its own names and words', async (t) => {
  for (const [what, query, api_expected, dashboard_expected] of rows) {
    for (const [side, send, expected] of [['API', api, api_expected], ['dashboard', dashboard, dashboard_expected]] as const) {
      const response = await send(query);
      if (typeof expected === 'number') {
        t.equal(response.status, 200, `${side}, ${what}: answers 200 (${response.text.slice(0, 160)})`);
        const found = side === 'API' ? response.body.data.transactions : response.body.data.orders;
        t.equal(found?.length, expected, `${side}, ${what}: finds ${expected} (${response.text.slice(0, 200)})`);
      } else {
        const [field, message] = expected;
        t.equal(response.status, 400, `${side}, ${what}: answers 400`);
        t.equal(response.body.error?.code, 'validation.failed', `${side}, ${what}: validation.failed`);
        t.equal(response.body.error?.message, `The request is not valid: ${field} ${message}.`, `${side}, ${what}: the message names ${field}`);
        t.same(response.body.error?.details, [{ field, message }], `${side}, ${what}: the details name ${field}`);
      }
    }
  }
});
