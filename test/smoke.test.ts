import t from 'tap';
import { start_server } from './helpers/server.js';

t.test('a fresh server answers an authenticated wallet read in the spec envelope', async (t) => {
  const server = await start_server(t);
  const reseller = await server.reseller(2500.5);
  const response = await server.api('GET', '/v1/wallet', { key: reseller.key });
  t.equal(response.status, 200, 'status 200');
  t.same(response.body.data, { balance: 2500.5, bonus_balance: 0, currency: 'NGN' }, 'balance in NGN');
  t.equal(response.headers.get('x-request-id'), response.body.request_id, 'X-Request-Id matches request_id');
});
