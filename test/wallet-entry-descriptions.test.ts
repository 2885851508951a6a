// Wallet entries say what was bought, in the names people use (docs/api.md "GET /v1/wallet/transactions";
// issue 36): a purchase of each of the seven families through the sandbox, then the wallet's history. They
// read "tv 1212121212" before; entries stored in those words read in the new ones (with the family's name
// for the product), and a credit's own description is left as its funder wrote it.
import t from 'tap';
import { open_store, start_server } from './helpers/server.js';
import { airtime_body, all_wallet_entries, buy, data_body, electricity_body, fast_reseller, idem, sandbox, tv_body } from './helpers/purchases.js';

const server = await start_server(t);
const phone = sandbox.delivered;

t.test('a purchase of each family is described by what was bought and for whom, and its refund by the same words', async (t) => {
  const account = await fast_reseller(server, 200_000);
  const mtn = (await server.api('GET', '/v1/services/data/plans?network=mtn', { key: account.key })).body.data.plans as { plan_code: string; name: string; amount: number }[];
  const plan = mtn.find((p) => p.plan_code === 'mtn-1gb-1d') ?? mtn[0]!;
  const purchases: [string, string, unknown, string][] = [
    ['airtime', '/v1/services/airtime', airtime_body(phone, 100), `MTN airtime for ${phone}`],
    ['data', '/v1/services/data/purchase', data_body(plan.plan_code, plan.amount, phone), `${plan.name} for ${phone}`],
    ['electricity', '/v1/services/electricity', electricity_body(sandbox.prepaid_meter, 1_000), `Ikeja Electric prepaid token for meter ${sandbox.prepaid_meter}`],
    ['tv', '/v1/services/tv', tv_body(sandbox.valid_smartcard, 'dstv-compact', 19_000, { provider: 'dstv' }), `DStv Compact for smartcard ${sandbox.valid_smartcard}`],
    ['education', '/v1/services/education', { product: 'waec-result-checker', quantity: 2, phone, amount: 7_800, pin: '12345' }, `WAEC Result Checker PIN × 2 for ${phone}`],
    ['internet', '/v1/services/internet', { provider: 'smile', plan_code: 'smile-10gb-30d', account: phone, phone, amount: 8_000, pin: '12345' }, `Smile 10GB Monthly for ${phone}`],
    ['showmax', '/v1/services/showmax', { phone, plan_code: 'showmax-full-3m', amount: 8_400, pin: '12345' }, `Showmax Full - 3 Months for ${phone}`],
  ];
  const references = new Map<string, string>();
  for (const [family, path, body] of purchases) {
    const bought = await buy(server, account.key, path, body, idem(family));
    t.ok(bought.status === 201 || bought.status === 202, `${family}: bought (${bought.status} ${bought.text.slice(0, 200)})`);
    references.set(family, bought.body?.data?.reference);
  }
  // The eighth family buys a quote first (docs/api.md "International airtime and data").
  const quoted = await server.api('POST', '/v1/services/international/quote', { key: account.key, body: { country: 'GH', operator: '5', product_type: '1', product_code: 'gh-mtn-topup', foreign_amount: '10.50' } });
  t.equal(quoted.status, 201, `international: quoted (${quoted.text.slice(0, 200)})`);
  const abroad = '233241234567';
  const international = await buy(server, account.key, '/v1/services/international', { quote_id: quoted.body.data.quote_id, phone: abroad, pin: '12345' }, idem('international'));
  t.equal(international.status, 201, `international: bought (${international.text.slice(0, 200)})`);
  const failed = await buy(server, account.key, '/v1/services/airtime', airtime_body(sandbox.failed, 50), idem('failed'));
  t.equal(failed.status, 422, 'an airtime purchase the sandbox fails');

  const entries = await all_wallet_entries(server, account.key) as { type: string; reference: string; description: string }[];
  for (const [family, , , expected] of purchases) {
    const debit = entries.find((entry) => entry.type === 'debit' && entry.reference === references.get(family));
    t.equal(debit?.description, expected, `${family}: "${expected}"`);
  }
  const abroad_debit = entries.find((entry) => entry.type === 'debit' && entry.reference === international.body.data.reference);
  t.equal(abroad_debit?.description, 'Ghana MTN Top Up 10.50 GHS for 233241234567', `international: "${abroad_debit?.description}"`);
  const refund = entries.find((entry) => entry.type === 'reversal');
  t.equal(refund?.description, `Refund of failed purchase: MTN airtime for ${sandbox.failed}`, 'the refund names the purchase it gives back');
  t.equal(entries.find((entry) => entry.type === 'credit')?.description, 'Wallet funding', 'a credit keeps its funder\'s words');
});

t.test('entries stored in the old words ("tv 1212121212") read in the new ones; a credit that looks alike is left as it is', async (t) => {
  const account = await fast_reseller(server, 50_000);
  const bought = await buy(server, account.key, '/v1/services/tv', tv_body(sandbox.valid_smartcard, 'dstv-compact', 19_000, { provider: 'dstv' }), idem('old'));
  t.equal(bought.status, 201, 'a TV purchase');
  const failed = await buy(server, account.key, '/v1/services/airtime', airtime_body(sandbox.failed, 50), idem('old-failed'));
  t.equal(failed.status, 422, 'a failed airtime purchase, refunded');
  t.equal((await server.credit(account.id, 'test', 10, 'FUND-OLD-WORDS')).status, 201, 'a credit');
  const data_dir = server.data_dir;
  t.equal(await server.stop(), 0, 'the server stops');

  // Written as the code before wrote them: "<family> <recipient>", "Refund of failed <family> <recipient>".
  const store = open_store(data_dir);
  const db = store.db('wallet_entries');
  const old_words: Record<string, string> = {};
  for (const { key, value } of db.getRange({ start: [account.id, 'test'], end: [account.id, 'test', Number.MAX_SAFE_INTEGER] })) {
    const entry = value as { type: string; description: string; reference: string };
    const words = entry.type === 'debit' && entry.reference === bought.body.data.reference ? `tv ${sandbox.valid_smartcard}`
      : entry.type === 'reversal' ? `Refund of failed airtime ${sandbox.failed}`
      : entry.type === 'credit' && entry.reference === 'FUND-OLD-WORDS' ? 'data 08011111111'
      : null;
    if (words === null) continue;
    old_words[entry.type] = words;
    await db.put(key, { ...entry, description: words });
  }
  await store.root.close();
  t.same(Object.keys(old_words).sort(), ['credit', 'debit', 'reversal'], 'three entries written in the old words');

  await server.start();
  const entries = await all_wallet_entries(server, account.key) as { type: string; reference: string; description: string }[];
  t.equal(entries.find((e) => e.reference === bought.body.data.reference && e.type === 'debit')?.description, `Cable TV for ${sandbox.valid_smartcard}`, 'the old TV debit reads in the new words');
  t.equal(entries.find((e) => e.type === 'reversal')?.description, `Refund of failed purchase: Airtime for ${sandbox.failed}`, 'the old refund too');
  t.equal(entries.find((e) => e.reference === 'FUND-OLD-WORDS')?.description, 'data 08011111111', 'a credit\'s description is its funder\'s, never rewritten');

  // A statement reads each entry's order, so an old entry reads there exactly as a new one would.
  const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
  const statement = await server.api('GET', `/v1/statements?date=${today}`, { key: account.key });
  t.equal(statement.status, 200, `the day's statement (${today})`);
  const lines = statement.body.data.entries as { type: string; reference: string; description: string }[];
  t.equal(lines.find((e) => e.reference === bought.body.data.reference && e.type === 'debit')?.description, `DStv Compact for smartcard ${sandbox.valid_smartcard}`, 'in the statement, the old TV debit is described from its order');
  t.equal(lines.find((e) => e.type === 'reversal')?.description, `Refund of failed purchase: MTN airtime for ${sandbox.failed}`, 'and the old refund too');
});
