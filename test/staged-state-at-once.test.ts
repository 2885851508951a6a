// Checks that must hold before a commit is durable, through real sockets: requests sent at once
// mostly land in one event-loop turn, so in one commit, where the store does not hold what the
// first of them staged yet and only the journal's read-your-writes can answer (src/journal/journal.ts
// `read`). Whatever the batching, exactly one request may take an email or a funding reference.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { start_server } from './helpers/server.js';

const server = await start_server(t);
const at_once = 20;

t.test('20 account creations at once with one email make one account; the others are 409 account.email_taken', async (t) => {
  const email = `once-${randomBytes(4).toString('hex')}@example.ng`;
  const body = (i: number) => ({ name: `At once ${i}`, email: i % 2 === 0 ? email : email.toUpperCase(), phone: '08031234567', password: 'long enough secret', kyc_level: 2 });
  const responses = await Promise.all(Array.from({ length: at_once }, (_, i) => server.admin('POST', '/admin/accounts', body(i))));
  const created = responses.filter((r) => r.status === 201);
  t.equal(created.length, 1, 'exactly one account is created');
  t.strictSame(responses.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body?.error?.code}`), Array(at_once - 1).fill('409 account.email_taken'), 'every other request is 409 account.email_taken');
});

t.test('20 operator credits at once with one funding reference credit once, and all answer the first credit', async (t) => {
  const account = await server.create_account();
  const reference = `AT-ONCE-${randomBytes(4).toString('hex')}`;
  const credit = { environment: 'test', amount: 1500, reference, description: 'Cash deposit at branch' };
  const responses = await Promise.all(Array.from({ length: at_once }, () => server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, credit)));
  t.strictSame([...new Set(responses.map((r) => r.status))], [201], 'every request answers 201');
  t.equal(new Set(responses.map((r) => r.body?.data?.id)).size, 1, 'every answer names the same credit');
  const key = await server.create_key(account.id, { environment: 'test' });
  const wallet = await server.api('GET', '/v1/wallet', { key: key.api_key });
  t.equal(wallet.body?.data?.balance, 1500, 'the balance holds one credit');
});

t.test('an account funded and credited again with another amount at once is refused as idempotency.key_reused', async (t) => {
  const account = await server.create_account();
  const reference = `AT-ONCE-AMOUNT-${randomBytes(4).toString('hex')}`;
  const [first, second] = await Promise.all([1500, 1600].map((amount) => server.admin('POST', `/admin/accounts/${account.id}/wallet/credit`, { environment: 'test', amount, reference, description: 'Cash deposit at branch' })));
  t.strictSame([first.status, second.status].sort(), [201, 422], 'one credit is made and the other refused (422)');
  t.equal([first, second].find((r) => r.status === 422)?.body?.error?.code, 'idempotency.key_reused', 'as idempotency.key_reused');
});
