// The CSV downloads send each security header once (finding new-user-2026-11-27 item 16: the export sent
// X-Content-Type-Options twice, once from the CSV headers and once from the reply's security tail). Read with
// node:http's rawHeaders, which keeps repeated headers that fetch would join.
import t from 'tap';
import { request } from 'node:http';
import { start_server } from './helpers/server.js';

const server = await start_server(t);

function raw_headers(path: string, headers: Record<string, string>): Promise<{ status: number; raw: string[] }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port: server.port, path, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, raw: response.rawHeaders }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function count(raw: string[], name: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) n++;
  return n;
}

t.test('the transactions export and the dashboard\'s CSV exports send X-Content-Type-Options once', async (t) => {
  const account = await server.reseller(1_000);
  const api = await raw_headers('/v1/transactions/export?from=2026-01-01&to=2026-01-31', { authorization: `Bearer ${account.key}` });
  t.equal(api.status, 200, 'the API export answers');
  t.equal(count(api.raw, 'x-content-type-options'), 1, 'the API export sends X-Content-Type-Options once');
  t.equal(count(api.raw, 'content-security-policy'), 1, 'and one Content-Security-Policy');

  const signed_in = await server.api('POST', '/dashboard/api/session', { body: { email: account.email, password: account.password } });
  t.equal(signed_in.status, 201, 'the account signs in to the dashboard');
  const cookie = (signed_in.headers.get('set-cookie') ?? '').split(';')[0]!;
  for (const path of ['/dashboard/api/export/orders?env=test', '/dashboard/api/export/wallet?env=test']) {
    const dashboard = await raw_headers(path, { cookie });
    t.equal(dashboard.status, 200, `${path} answers`);
    t.equal(count(dashboard.raw, 'x-content-type-options'), 1, `${path} sends X-Content-Type-Options once`);
    t.equal(count(dashboard.raw, 'cache-control'), 1, `${path} sends Cache-Control once`);
  }
});
