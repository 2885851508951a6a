// Pricing of the later product families (docs/decisions.md "Product families": price rules narrow education by
// exam body and internet by provider): the most specific rule wins, the wallet is debited amount_charged,
// GET /v1/pricing and the product lists show the rate, and a failed order gives back what was debited.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { balance_kobo, buy, check_created, check_error, entries_of, fast_reseller } from './helpers/purchases.js';

const server = await start_server(t, { env: { TIME_SCALE: '0.001' } });
const tier = `families_${process.pid % 1000}`;

const waec_body = (quantity: number, phone = '08031234567') => ({ product: 'waec-result-checker', quantity, phone, amount: 3_900 * quantity, pin: '12345' });
const spectranet_body = (phone = '08031234567') => ({ provider: 'spectranet', plan_code: 'spectranet-7000', phone, amount: 7_000, pin: '12345' });

t.before(async () => {
  const put = await server.admin('PUT', `/admin/pricing/${tier}`, {
    rules: [
      { service_type: 'education', rate_bp: 100 },
      { service_type: 'education', provider: 'waec', rate_bp: 333 },
      { service_type: 'internet', rate_bp: 250 },
    ],
  });
  if (put.status !== 200) throw new Error(`PUT /admin/pricing: ${put.status} ${put.text}`);
});

t.test('a rule naming an exam body beats the education rule, and the wallet pays price × quantity less the commission', async (t) => {
  const account = await fast_reseller(server, 100_000, { tier });
  const before = await balance_kobo(server, account.key);
  const response = await buy(server, account.key, '/v1/services/education', waec_body(3));
  check_created(t, response, 'delivered', 'three WAEC PINs in a priced tier');
  // 3 × 3,900 = 11,700 NGN = 1,170,000 kobo; 333 bp of it is 38,961 kobo (floor), so 1,131,039 kobo are charged.
  t.equal(response.body.data.amount, 11_700, 'amount is the face value of the three PINs');
  t.equal(response.body.data.commission, 389.61, 'commission = floor(1,170,000 × 333 / 10000) kobo = NGN 389.61 (the waec rule, not the education one)');
  t.equal(response.body.data.amount_charged, 11_310.39, 'amount_charged = 11,700 − 389.61');
  t.equal(before - (await balance_kobo(server, account.key)), 1_131_039, 'the wallet is debited amount_charged in kobo');
  const entries = await entries_of(server, account.key, response.body.data.reference);
  t.same(entries.map((e) => [e.type, e.amount]), [['debit', 11_310.39]], 'one debit entry of amount_charged');
});

t.test('JAMB falls back to the education rule; internet has its own rate', async (t) => {
  const account = await fast_reseller(server, 100_000, { tier });
  const pricing = await server.api('GET', '/v1/pricing', { key: account.key });
  t.equal(pricing.status, 200, 'GET /v1/pricing answers');
  const rates = pricing.body.data.rates as { service_type: string; provider?: string | null; rate_bp: number }[];
  const rate_of = (service_type: string, provider: string) => rates.find((r) => r.service_type === service_type && r.provider === provider)?.rate_bp;
  t.equal(rate_of('education', 'waec'), 333, 'GET /v1/pricing: WAEC at 333 bp');
  t.equal(rate_of('education', 'jamb'), 100, 'GET /v1/pricing: JAMB at the education rule, 100 bp');
  t.equal(rate_of('internet', 'spectranet'), 250, 'GET /v1/pricing: Spectranet at 250 bp');
  const products = await server.api('GET', '/v1/services/education/products?exam=jamb', { key: account.key });
  const utme = (products.body.data.products as any[]).find((p) => p.product_code === 'jamb-utme');
  t.equal(utme.amount_charged, 7_623, 'the JAMB UTME product lists 7,700 less 1% as amount_charged');
  const response = await buy(server, account.key, '/v1/services/internet', spectranet_body());
  check_created(t, response, 'delivered', 'a Spectranet PIN in a priced tier');
  t.equal(response.body.data.commission, 175, 'commission = 2.5% of 7,000');
  t.equal(response.body.data.amount_charged, 6_825, 'amount_charged = 7,000 − 175');
});

t.test('a failed education order in a priced tier is refunded exactly what was debited', async (t) => {
  const account = await fast_reseller(server, 100_000, { tier });
  const before = await balance_kobo(server, account.key);
  const response = await buy(server, account.key, '/v1/services/education', waec_body(1, '08022222222'));
  check_error(t, response, 422, 'transaction.failed', 'the sandbox phone that fails');
  const reference = response.body.error.reference as string;
  const entries = await entries_of(server, account.key, reference);
  t.same(entries.map((e) => [e.type, e.amount]), [['debit', 3_770.13], ['reversal', 3_770.13]], 'the debit of 3,900 less 333 bp and its refund of the same amount');
  t.equal(await balance_kobo(server, account.key), before, 'the balance is back where it was');
});
