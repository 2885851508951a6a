// Buying from the dashboard (issue "The dashboard as a working desk"): airtime and data (the network filled in
// from the number as it is typed, docs/api.md "Phone lookup"), data with the plan picker, Showmax plans,
// electricity and cable TV with the recipient verified first (the customer's name shows),
// then a confirmation step that says what the wallet will be debited, the transaction PIN, and the
// result: the token with a copy button, or the server's error as it is. The purchase goes to the
// dashboard's twins of the API's purchase routes (src/dashboard/desk-routes.ts), with an idempotency
// key made once per intent: a double click, or a retry after a lost answer, buys once.
//
// The Pay step never buys twice by accident (docs/api.md "Buying, finding and exporting in the
// dashboard"): after any answer the PIN field is cleared, so Pay waits for a PIN typed again. An answer
// the server does not remember (a refused PIN, 401, 429, 5xx, or no answer at all) leaves the intent
// open under the same key: the retry runs it, or is answered with what the first did. Any other answer
// (a failed and refunded order, insufficient funds, …) spends the confirmation: Pay stays disabled until
// a new intent, "Buy again" or a changed form, which alone makes a new key.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, type Environment } from '../api.js';
import { use_api } from '../use-api.js';
import { leaves_intent_open, new_intent_key, parse_amount } from '../intent.js';
import { naira, narrow_name, service_name, service_types } from '../format.js';
import { ErrorBanner } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';
import { CopyButton } from '../components/copy-button.js';
import { StatusBadge } from '../components/status-badge.js';
import { href_of, Link } from '../router.js';

/** The families this page has a form for; the choices shown are the server's list (format.ts service_types). */
const forms = ['airtime', 'data', 'electricity', 'tv', 'education', 'internet', 'showmax', 'international'] as const;
type Service = (typeof forms)[number];
const has_form = (name: string): name is Service => (forms as readonly string[]).includes(name);

// Labels read when shown, not when this module loads: the names come with the session (format.ts).
const choices = (codes: readonly string[]) => () => codes.map((value) => ({ value, label: narrow_name(value) }));
const networks = choices(['mtn', 'airtel', 'glo', '9mobile']);
const tv_providers = choices(['dstv', 'gotv', 'startimes']);
const internet_providers = choices(['smile', 'spectranet']);

interface Plan { plan_id: string; name: string; network: string; amount: number; amount_charged: number; validity: string }
interface ShowmaxPlan { plan_code: string; name: string; amount: number; amount_charged: number; validity: string }
/** GET /dashboard/api/lookup/phone/{phone} (docs/api.md "Phone lookup"). */
interface PhoneLookup { phone: string; network: string | null; ported: boolean; source: 'prefix' | 'delivery' }
interface TvPackage { package_code: string; name: string; provider: string; amount: number; amount_charged: number }
interface Disco { code: string; service_id: string; name: string }
interface Verified { customer_name: string; address?: string | null; current_package?: string; due_date?: string }
interface EducationProduct { product_code: string; name: string; exam: string; amount: number; amount_charged: number; quantity_max: number; requires_profile: boolean }
/** International airtime and data (docs/api.md "International airtime and data"): the lists and the quote. */
interface ForeignCountry { code: string; name: string; currency: string; prefix: string }
interface ForeignOperator { operator_id: string; name: string; product_type_id: string; product_type: string }
interface ForeignProduct { product_code: string; name: string; fixed_price: boolean; currency: string; foreign_amount: string | null; foreign_amount_min: string | null; foreign_amount_max: string | null; rate: string | null; amount: number | null }
interface ForeignQuote { quote_id: string; product: string; operator: string | null; currency: string; foreign_amount: string | null; rate: string | null; amount: number; amount_charged: number; commission: number; expires_at: string }
interface InternetPlan { plan_id: string; plan_code: string; name: string; provider: string; amount: number; amount_charged: number; validity: string }

interface PurchaseResult {
  reference: string;
  status: string;
  amount: number;
  amount_charged: number;
  commission: number;
  wallet_balance_after: number;
  token?: string | null;
  units?: string | null;
  customer_name?: string | null;
  plan?: string | null;
  /** Who received it: one of these, by family. */
  phone?: string;
  meter_number?: string;
  smartcard_number?: string;
  account?: string | null;
  /** What it went through: network, disco, provider or exam. */
  network?: string;
  disco?: string;
  provider?: string;
  exam?: string;
  product_name?: string | null;
  quantity?: number;
  /** Exam and Spectranet PINs, once delivered (docs/api.md "Education and internet"). */
  pins?: { serial: string | null; pin: string }[] | null;
}

/** The recipient and the network (disco, provider, exam) of a purchase's answer, as people write them. */
function result_parties(result: PurchaseResult): { recipient: string | null; network: string | null } {
  const recipient = result.meter_number ?? result.smartcard_number ?? result.account ?? result.phone ?? null;
  const code = result.network ?? result.disco ?? result.provider ?? result.exam ?? null;
  return { recipient, network: code === null ? null : narrow_name(code) };
}

/** What the confirmation shows and what is sent. */
interface Draft {
  path: string;
  body: Record<string, unknown>;
  amount: number;
  /** The product the tier's rate is looked up for (docs/api.md "Pricing"). */
  service_type: Service;
  narrow: string;
  lines: [string, string][];
  /** A quote's charge (international): shown and refunded as quoted, not worked out again from the rates. */
  quoted?: { charged: number; commission: number };
}

/** GET /dashboard/api/pricing: the account's effective rate per product. */
interface Pricing {
  tier: string;
  rates: { service_type: string; network: string | null; disco: string | null; provider: string | null; rate_bp: number }[];
}

/**
 * What the wallet will be debited, as the server works it out (docs/api.md "Pricing"): the commission
 * is floor(amount_kobo × rate_bp / 10000), in whole kobo. Shown before the PIN; the purchase's answer
 * carries the amount actually charged.
 */
function charged_of(draft: Draft, pricing: Pricing | null | undefined): { charged: number; commission: number } {
  if (draft.quoted !== undefined) return draft.quoted;
  const rate = pricing?.rates.find((r) => r.service_type === draft.service_type && (r.network ?? r.disco ?? r.provider) === draft.narrow)?.rate_bp ?? 0;
  const amount_kobo = Math.round(draft.amount * 100);
  const commission_kobo = Math.floor((amount_kobo * rate) / 10_000);
  return { charged: (amount_kobo - commission_kobo) / 100, commission: commission_kobo / 100 };
}

/** A fresh idempotency key for one confirmed purchase (intent.ts). */
function new_key(): string {
  return new_intent_key('dash-', 16);
}

export function BuyPage({ environment }: { environment: Environment }) {
  const [service, set_service] = useState<Service>('airtime');
  const [network, set_network] = useState('mtn');
  // The network is filled in from the number until the person picks one themselves.
  const [network_chosen, set_network_chosen] = useState(false);
  const [detected, set_detected] = useState<PhoneLookup | null>(null);
  const [phone, set_phone] = useState('');
  const [showmax_code, set_showmax_code] = useState('');
  const [amount_text, set_amount_text] = useState('');
  const [plan_id, set_plan_id] = useState('');
  const [disco, set_disco] = useState('');
  const [meter_type, set_meter_type] = useState<'prepaid' | 'postpaid'>('prepaid');
  const [meter, set_meter] = useState('');
  const [tv_provider, set_tv_provider] = useState('dstv');
  const [smartcard, set_smartcard] = useState('');
  const [package_code, set_package_code] = useState('');
  const [product_code, set_product_code] = useState('');
  const [quantity_text, set_quantity_text] = useState('1');
  const [profile_id, set_profile_id] = useState('');
  const [internet_provider, set_internet_provider] = useState('smile');
  const [internet_code, set_internet_code] = useState('');
  const [internet_account, set_internet_account] = useState('');
  const [country, set_country] = useState('GH');
  // "operator_id/product_type_id": VTpass lists operators by country and product type.
  const [operator_key, set_operator_key] = useState('');
  const [foreign_code, set_foreign_code] = useState('');
  const [foreign_amount, set_foreign_amount] = useState('');
  const [quoting, set_quoting] = useState(false);
  const [verified, set_verified] = useState<Verified | null>(null);
  const [verifying, set_verifying] = useState(false);
  const [error, set_error] = useState<ApiError | null>(null);
  const [draft, set_draft] = useState<Draft | null>(null);
  const [pin, set_pin] = useState('');
  const [paying, set_paying] = useState(false);
  const [result, set_result] = useState<PurchaseResult | null>(null);
  // The confirmation got an answer that ran (or that the server remembers): Pay is disabled until a new intent.
  const [spent, set_spent] = useState(false);
  // A failed order, refunded: its reference and what went back to the wallet.
  const [failed, set_failed] = useState<{ reference: string; refunded: number } | null>(null);
  // One key per intent (what is bought, for whom, how much), kept while the intent stays unrun: a
  // retry, a second click or a lost answer then repeats the same purchase and the server answers it once.
  const key = useRef('');
  const key_intent = useRef('');
  const in_flight = useRef(false);

  const plans = use_api<{ plans: Plan[] }>(service === 'data' ? '/services/data/plans' : null, { environment, query: { network } });
  const packages = use_api<{ packages: TvPackage[] }>(service === 'tv' ? '/services/tv/packages' : null, { environment, query: { provider: tv_provider } });
  const discos = use_api<{ discos: Disco[] }>(service === 'electricity' ? '/services/electricity/discos' : null, { environment });
  const showmax_plans = use_api<{ plans: ShowmaxPlan[] }>(service === 'showmax' ? '/services/showmax/plans' : null, { environment });
  const products = use_api<{ products: EducationProduct[] }>(service === 'education' ? '/services/education/products' : null, { environment });
  const internet_plans = use_api<{ plans: InternetPlan[] }>(service === 'internet' ? '/services/internet/plans' : null, { environment, query: { provider: internet_provider } });
  const product = products.data?.products.find((p) => p.product_code === product_code);
  const internet_plan = internet_plans.data?.plans.find((p) => p.plan_code === internet_code);
  // Every family the API sells and this page has a form for, in the API's order.
  const [foreign_operator, foreign_type] = operator_key === '' ? ['', ''] : operator_key.split('/');
  const countries = use_api<{ countries: ForeignCountry[] }>(service === 'international' ? '/services/international/countries' : null, { environment });
  const foreign_operators = use_api<{ operators: ForeignOperator[] }>(service === 'international' && country !== '' ? '/services/international/operators' : null, { environment, query: { country } });
  const foreign_products = use_api<{ products: ForeignProduct[] }>(service === 'international' && operator_key !== '' ? '/services/international/products' : null, { environment, query: { country, operator: foreign_operator, product_type: foreign_type } });
  const foreign_product = foreign_products.data?.products.find((p) => p.product_code === foreign_code) ?? null;
  const offered = service_types().filter(has_form);

  // A whole number typed: ask which network it is on (its prefix, or where a live delivery found it ported).
  const typed = phone.trim();
  useEffect(() => {
    set_detected(null);
    if ((service !== 'airtime' && service !== 'data') || !/^0\d{10}$/.test(typed)) return;
    let current = true;
    call<PhoneLookup>('GET', `/lookup/phone/${typed}`, { environment }).then(({ data }) => {
      if (!current) return;
      set_detected(data);
      if (data.network !== null && !network_chosen) set_network(data.network);
    }, () => undefined);
    return () => { current = false; };
  }, [typed, service, environment]);
  const pricing = use_api<Pricing>('/pricing', { environment });

  // A verification is about one recipient: any change to it asks again.
  useEffect(() => set_verified(null), [service, disco, meter_type, meter, tv_provider, smartcard, product_code, profile_id, internet_provider, internet_account]);
  useEffect(() => set_internet_code(''), [internet_provider]);
  useEffect(() => set_plan_id(''), [network]);
  useEffect(() => set_package_code(''), [tv_provider]);
  useEffect(() => {
    if (disco === '' && discos.data && discos.data.discos.length > 0) set_disco(discos.data.discos[0].service_id);
  }, [discos.data]);

  const plan = plans.data?.plans.find((p) => p.plan_id === plan_id);
  const tv_package = packages.data?.packages.find((p) => p.package_code === package_code);
  const disco_name = discos.data?.discos.find((d) => d.service_id === disco)?.name ?? disco;
  const network_label = networks().find((n) => n.value === network)?.label ?? network;
  const provider_label = tv_providers().find((p) => p.value === tv_provider)?.label ?? tv_provider;

  const refuse = (field: string, message: string) => set_error(new ApiError(400, 'validation.failed', `Check the form: ${field} ${message}.`, [{ field, message }]));

  const verify = async () => {
    set_error(null);
    set_verifying(true);
    try {
      const { data } = service === 'electricity'
        ? await call<Verified>('POST', '/services/electricity/verify', { environment, body: { disco, meter_number: meter.trim(), meter_type } })
        : service === 'education'
          ? await call<Verified>('POST', '/services/education/verify', { environment, body: { product: product_code, profile_id: profile_id.trim() } })
          : service === 'internet'
            ? await call<Verified>('POST', '/services/internet/verify', { environment, body: { provider: internet_provider, account: internet_account.trim() } })
            : await call<Verified>('POST', '/services/tv/verify', { environment, body: { provider: tv_provider, smartcard_number: smartcard.trim() } });
      set_verified(data);
    } catch (failure) {
      set_error(failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure)));
    } finally {
      set_verifying(false);
    }
  };

  /**
   * International: the quote fixes the NGN charge for 10 minutes before the PIN; the confirmation shows it and
   * the purchase names it (docs/api.md "International airtime and data").
   */
  const quote_then_confirm = async () => {
    if (foreign_product === null || phone.trim() === '') return;
    set_quoting(true);
    try {
      const body: Record<string, unknown> = { country, operator: foreign_operator, product_type: foreign_type, product_code: foreign_product.product_code };
      if (!foreign_product.fixed_price) body.foreign_amount = foreign_amount.trim();
      const { data } = await call<ForeignQuote>('POST', '/services/international/quote', { environment, body });
      const value = data.foreign_amount === null ? data.product : `${data.foreign_amount} ${data.currency}`;
      confirm({
        path: '/services/international', body: { quote_id: data.quote_id, phone: phone.trim() }, amount: data.amount, service_type: 'international', narrow: 'foreign-airtime',
        quoted: { charged: data.amount_charged, commission: data.commission },
        lines: [['Service', `International · ${data.operator ?? foreign_operator}`], ['Product', data.product], ['They get', value], ...(data.rate === null ? [] : [['Rate', `₦${data.rate} per ${data.currency}`] as [string, string]]), ['Phone number', phone.trim()], ['Price held until', new Date(data.expires_at).toLocaleTimeString()]],
      });
    } catch (failure) {
      set_error(failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure)));
    } finally {
      set_quoting(false);
    }
  };

  /** Checks the form and moves to the confirmation with what will be sent. */
  const review = (event: Event) => {
    event.preventDefault();
    set_error(null);
    let next: Draft | null = null;
    if (service === 'international') {
      void quote_then_confirm();
      return;
    }
    if (service === 'airtime') {
      const amount = parse_amount(amount_text);
      if (amount === null) return refuse('amount', 'must be naira, such as 500 or 1500.50');
      next = { path: '/services/airtime', body: { network, phone: phone.trim(), amount }, amount, service_type: 'airtime', narrow: network, lines: [['Service', `Airtime · ${network_label}`], ['Phone number', phone.trim()]] };
    } else if (service === 'education') {
      if (product === undefined) return refuse('product', 'choose an exam PIN');
      const quantity = Number(quantity_text);
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > product.quantity_max) return refuse('quantity', `must be a whole number from 1 to ${product.quantity_max}`);
      if (product.requires_profile && verified === null) return refuse('profile_id', 'verify the profile ID first');
      const amount = Math.round(product.amount * quantity * 100) / 100;
      const body: Record<string, unknown> = { product: product.product_code, quantity, phone: phone.trim(), amount };
      if (product.requires_profile) body.profile_id = profile_id.trim();
      const lines: [string, string][] = [['Service', `Education · ${narrow_name(product.exam)}`], ['Product', `${product.name} × ${quantity}`], ['Phone number', phone.trim()]];
      if (verified !== null) lines.push(['Candidate', verified.customer_name]);
      next = { path: '/services/education', body, amount, service_type: 'education', narrow: product.exam, lines };
    } else if (service === 'internet') {
      if (internet_plan === undefined) return refuse('plan_code', 'choose an internet plan');
      const needs_account = internet_provider === 'smile';
      if (needs_account && verified === null) return refuse('account', 'verify the Smile account first');
      const body: Record<string, unknown> = { provider: internet_provider, plan_code: internet_plan.plan_code, phone: phone.trim(), amount: internet_plan.amount };
      if (needs_account) body.account = internet_account.trim();
      const lines: [string, string][] = [['Service', `Internet · ${narrow_name(internet_provider)}`], ['Plan', `${internet_plan.name} (${internet_plan.validity})`], ['Phone number', phone.trim()]];
      if (needs_account) lines.push(['Account', internet_account.trim()], ['Customer', verified!.customer_name]);
      next = { path: '/services/internet', body, amount: internet_plan.amount, service_type: 'internet', narrow: internet_provider, lines };
    } else if (service === 'data') {
      if (plan === undefined) return refuse('plan_code', 'choose a data plan');
      next = { path: '/services/data/purchase', body: { network, phone: phone.trim(), plan_code: plan.plan_id, amount: plan.amount }, amount: plan.amount, service_type: 'data', narrow: network, lines: [['Service', `Data · ${network_label}`], ['Plan', `${plan.name} (${plan.validity})`], ['Phone number', phone.trim()]] };
    } else if (service === 'showmax') {
      const chosen = showmax_plans.data?.plans.find((p) => p.plan_code === showmax_code);
      if (chosen === undefined) return refuse('plan_code', 'choose a Showmax plan');
      next = { path: '/services/showmax', body: { phone: phone.trim(), plan_code: chosen.plan_code, amount: chosen.amount }, amount: chosen.amount, service_type: 'showmax', narrow: 'showmax', lines: [['Service', 'Showmax'], ['Plan', `${chosen.name} (${chosen.validity})`], ['Phone number', phone.trim()]] };
    } else if (service === 'electricity') {
      const amount = parse_amount(amount_text);
      if (verified === null) return refuse('meter_number', 'verify the meter first');
      if (amount === null) return refuse('amount', 'must be naira, such as 5000');
      next = {
        path: '/services/electricity',
        body: { disco, meter_number: meter.trim(), meter_type, amount },
        amount,
        service_type: 'electricity',
        narrow: disco,
        lines: [['Service', `Electricity · ${disco_name}`], ['Meter', `${meter.trim()} (${meter_type})`], ['Customer', verified.customer_name]],
      };
    } else {
      if (verified === null) return refuse('smartcard_number', 'verify the smartcard first');
      if (tv_package === undefined) return refuse('package_code', 'choose a package');
      next = {
        path: '/services/tv',
        body: { provider: tv_provider, smartcard_number: smartcard.trim(), package_code: tv_package.package_code, amount: tv_package.amount },
        amount: tv_package.amount,
        service_type: 'tv',
        narrow: tv_provider,
        lines: [['Service', `Cable TV · ${provider_label}`], ['Package', tv_package.name], ['Smartcard', smartcard.trim()], ['Customer', verified.customer_name]],
      };
    }
    confirm(next);
  };

  /** The confirmation step for a draft: a new idempotency key only for a new intent. */
  const confirm = (next: Draft) => {
    // A new key only for a new intent: the same purchase confirmed again before anything ran keeps its key.
    const intent = JSON.stringify([environment, next.path, next.body]);
    if (key.current === '' || spent || intent !== key_intent.current) {
      key.current = new_key();
      key_intent.current = intent;
    }
    set_spent(false);
    set_failed(null);
    set_pin('');
    set_draft(next);
  };

  /** "Buy again" after an answer that ran: the same purchase as a new intent, under a new key. */
  const buy_again = () => {
    key.current = new_key();
    set_spent(false);
    set_failed(null);
    set_error(null);
    set_pin('');
  };

  const pay = async (event: Event) => {
    event.preventDefault();
    if (draft === null || in_flight.current || spent || !/^\d{5}$/.test(pin)) return;
    in_flight.current = true;
    set_paying(true);
    set_error(null);
    try {
      const { data } = await call<PurchaseResult>('POST', draft.path, { environment, body: { ...draft.body, pin }, idempotency_key: key.current });
      set_spent(true);
      set_result(data);
      set_draft(null);
    } catch (failure) {
      const refused = failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure));
      // The key is kept either way; only "Buy again" or a changed form makes a new one.
      if (!leaves_intent_open(refused)) set_spent(true);
      if (refused.code === 'transaction.failed' && refused.reference !== null) {
        set_failed({ reference: refused.reference, refunded: charged_of(draft, pricing.data).charged });
      }
      set_error(refused);
    } finally {
      // After any answer the PIN is typed again: nothing is paid by a second click on what is on screen.
      set_pin('');
      in_flight.current = false;
      set_paying(false);
    }
  };

  const start_over = () => {
    // The purchase shown ran under its key: whatever comes next is a new intent.
    key.current = '';
    set_result(null);
    set_draft(null);
    set_error(null);
    set_failed(null);
    set_spent(false);
    set_pin('');
  };

  const wallet_name = environment === 'live' ? 'live wallet' : 'test wallet (sandbox)';

  if (result !== null) {
    return (
      <>
        <PageHeader title="Buy" />
        <section class="card buy-result" data-testid="purchase-result" aria-labelledby="result-title">
          <h2 id="result-title">{result.status === 'delivered' ? 'Delivered' : result.status === 'failed' ? 'Failed' : 'On its way'}</h2>
          <dl class="facts facts-buy">
            <dt>Reference</dt>
            <dd>
              <Link href={href_of(`/orders/${encodeURIComponent(result.reference)}`, environment)} class="mono" title="Open the order">
                <span data-testid="purchase-reference">{result.reference}</span>
              </Link>
            </dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={result.status} />
            </dd>
            {result_parties(result).recipient !== null && (
              <>
                <dt>Recipient</dt>
                <dd class="mono" data-testid="purchase-recipient">{result_parties(result).recipient}</dd>
              </>
            )}
            {result_parties(result).network !== null && (
              <>
                <dt>Network</dt>
                <dd data-testid="purchase-network">{result_parties(result).network}</dd>
              </>
            )}
            {(result.plan ?? result.product_name) && (
              <>
                <dt>{result.product_name ? 'Product' : 'Plan'}</dt>
                <dd>{result.product_name ?? result.plan}{result.quantity !== undefined && result.quantity > 1 ? ` × ${result.quantity}` : ''}</dd>
              </>
            )}
            <dt>Amount</dt>
            <dd>{naira(result.amount)}</dd>
            <dt>Charged to wallet</dt>
            <dd data-testid="purchase-amount-charged">{naira(result.amount_charged)}</dd>
            {result.customer_name && (
              <>
                <dt>Customer</dt>
                <dd>{result.customer_name}</dd>
              </>
            )}
            {result.units && (
              <>
                <dt>Units</dt>
                <dd>{result.units}</dd>
              </>
            )}
            <dt>Balance after</dt>
            <dd>{naira(result.wallet_balance_after)}</dd>
          </dl>
          {result.token && (
            <div class="secret-row token-row">
              <code class="secret-value" data-testid="purchase-token" aria-label="Prepaid token">{result.token}</code>
              <CopyButton text={result.token} label="Copy token" />
            </div>
          )}
          {result.pins && result.pins.length > 0 && (
            <ul class="pin-list" data-testid="purchase-pins" aria-label="Purchased PINs">
              {result.pins.map((p, index) => (
                <li key={index} class="secret-row">
                  {p.serial && <span class="muted small mono">Serial {p.serial}</span>}
                  <code class="secret-value" data-testid="purchase-pin">{p.pin}</code>
                  <CopyButton text={p.pin} label="Copy PIN" />
                </li>
              ))}
            </ul>
          )}
          {result.status === 'processing' && <p class="muted">The provider is still working on it; the order page follows it to the end.</p>}
          <button type="button" class="button button-primary" onClick={start_over}>
            Buy something else
          </button>
        </section>
      </>
    );
  }

  if (draft !== null) {
    return (
      <>
        <PageHeader title="Buy" />
        <form class="card form" onSubmit={pay} aria-labelledby="confirm-title" data-testid="purchase-confirm">
          <h2 id="confirm-title">Confirm the purchase</h2>
          <ErrorBanner error={error} />
          {failed !== null && (
            <div class="banner banner-info" role="status" data-testid="purchase-failed">
              <p class="banner-text">
                Order{' '}
                <Link href={href_of(`/orders/${encodeURIComponent(failed.reference)}`, environment)} class="mono" title="Open the order">
                  <span data-testid="failed-reference">{failed.reference}</span>
                </Link>{' '}
                failed; <span data-testid="failed-refund">{naira(failed.refunded)}</span> went back to your {wallet_name}.
              </p>
            </div>
          )}
          <dl class="facts facts-buy">
            {draft.lines.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
            {charged_of(draft, pricing.data).commission > 0 && (
              <>
                <dt>Face value</dt>
                <dd data-testid="confirm-face-value">{naira(draft.amount)}</dd>
                <dt>Your commission</dt>
                <dd data-testid="confirm-commission">{naira(charged_of(draft, pricing.data).commission)}</dd>
              </>
            )}
            <dt>Debited from your {wallet_name}</dt>
            <dd class="figure" data-testid="confirm-amount">{naira(charged_of(draft, pricing.data).charged)}</dd>
          </dl>
          <label class="field field-narrow">
            <span>Transaction PIN</span>
            <input name="pin" type="password" inputMode="numeric" autoComplete="off" pattern="[0-9]{5}" maxLength={5} required disabled={spent} value={pin} onInput={(e) => set_pin(e.currentTarget.value)} />
          </label>
          <div class="field-row">
            <button type="button" class="button" onClick={() => set_draft(null)} disabled={paying}>
              Back
            </button>
            <button type="submit" class="button button-primary" aria-busy={paying ? 'true' : undefined} disabled={paying || spent || !/^\d{5}$/.test(pin)}>
              {paying ? 'Paying…' : `Pay ${naira(charged_of(draft, pricing.data).charged)}`}
            </button>
            {spent && (
              <button type="button" class="button" onClick={buy_again}>
                Buy again
              </button>
            )}
          </div>
        </form>
      </>
    );
  }

  const needs_verification = service === 'electricity' || service === 'tv' || (service === 'education' && product?.requires_profile === true) || (service === 'internet' && internet_provider === 'smile');
  const verify_input = service === 'electricity' ? meter : service === 'tv' ? smartcard : service === 'education' ? profile_id : internet_account;
  const verify_label = service === 'electricity' ? 'Verify meter' : service === 'tv' ? 'Verify smartcard' : service === 'education' ? 'Verify profile ID' : 'Verify account';
  return (
    <>
      <PageHeader title="Buy">
        <Link href={href_of('/buy/bulk', environment)} class="button button-small">
          Buy in bulk (CSV)
        </Link>
      </PageHeader>
      <form class="card form" onSubmit={review} aria-labelledby="buy-title">
        <h2 id="buy-title">What are you buying?</h2>
        <fieldset class="field">
          <legend>Service</legend>
          <div class="choice-row">
            {offered.map((option) => (
              <label key={option} class="choice">
                <input type="radio" name="service" value={option} checked={service === option} onChange={() => { set_service(option); set_error(null); }} />
                <span>{service_name(option)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorBanner error={error} />
        {(service === 'airtime' || service === 'data') && (
          <>
            <label class="field field-narrow">
              <span>Network</span>
              <select name="network" value={network} onChange={(e) => { set_network(e.currentTarget.value); set_network_chosen(true); }}>
                {networks().map((n) => <option key={n.value} value={n.value}>{n.label}</option>)}
              </select>
            </label>
            <label class="field">
              <span>Phone number</span>
              <input name="phone" type="tel" inputMode="tel" autoComplete="off" required placeholder="08031234567" maxLength={14} value={phone} onInput={(e) => set_phone(e.currentTarget.value)} />
            </label>
            {detected !== null && (
              <p class="muted small" role="status" data-testid="detected-network">
                {detected.network === null
                  ? 'The network of this number is not known: choose it.'
                  : `On ${networks().find((n) => n.value === detected.network)?.label ?? detected.network}${detected.ported ? ' (ported: a delivery found it there)' : ''}.`}
              </p>
            )}
          </>
        )}
        {service === 'showmax' && (
          <>
            <label class="field">
              <span>Phone number</span>
              <input name="phone" type="tel" inputMode="tel" autoComplete="off" required placeholder="08031234567" maxLength={14} value={phone} onInput={(e) => set_phone(e.currentTarget.value)} />
            </label>
            <label class="field">
              <span>Showmax plan</span>
              <select name="plan_code" required value={showmax_code} onChange={(e) => set_showmax_code(e.currentTarget.value)} aria-busy={showmax_plans.loading ? 'true' : undefined}>
                <option value="">Choose a plan…</option>
                {showmax_plans.data?.plans.map((p) => (
                  <option key={p.plan_code} value={p.plan_code}>
                    {p.name} · {naira(p.amount)}{p.amount_charged < p.amount ? ` (you pay ${naira(p.amount_charged)})` : ''}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {service === 'international' && (
          <>
            <label class="field field-narrow">
              <span>Country</span>
              <select name="country" required value={country} onChange={(e) => { set_country(e.currentTarget.value); set_operator_key(''); set_foreign_code(''); }} aria-busy={countries.loading ? 'true' : undefined}>
                {countries.data?.countries.map((c) => <option key={c.code} value={c.code}>{c.name} (+{c.prefix}, {c.currency})</option>)}
              </select>
            </label>
            <label class="field">
              <span>Operator</span>
              <select name="operator" required value={operator_key} onChange={(e) => { set_operator_key(e.currentTarget.value); set_foreign_code(''); }} aria-busy={foreign_operators.loading ? 'true' : undefined}>
                <option value="">Choose an operator…</option>
                {foreign_operators.data?.operators.map((o) => <option key={`${o.operator_id}/${o.product_type_id}`} value={`${o.operator_id}/${o.product_type_id}`}>{o.name} · {o.product_type}</option>)}
              </select>
            </label>
            <label class="field">
              <span>Product</span>
              <select name="product_code" required value={foreign_code} onChange={(e) => set_foreign_code(e.currentTarget.value)} aria-busy={foreign_products.loading ? 'true' : undefined}>
                <option value="">Choose a product…</option>
                {foreign_products.data?.products.map((p) => (
                  <option key={p.product_code} value={p.product_code}>
                    {p.name}{p.amount !== null ? ` · ${naira(p.amount)}` : p.rate !== null ? ` · ₦${p.rate} per ${p.currency}` : ''}
                  </option>
                ))}
              </select>
            </label>
            {foreign_product !== null && !foreign_product.fixed_price && (
              <label class="field field-narrow">
                <span>Amount ({foreign_product.currency})</span>
                <input name="foreign_amount" inputMode="decimal" autoComplete="off" required placeholder={`${foreign_product.foreign_amount_min ?? '1.00'} to ${foreign_product.foreign_amount_max ?? '…'}`} value={foreign_amount} onInput={(e) => set_foreign_amount(e.currentTarget.value)} />
              </label>
            )}
            <label class="field">
              <span>Phone number abroad</span>
              <input name="phone" type="tel" inputMode="tel" autoComplete="off" required placeholder="233241234567" maxLength={15} value={phone} onInput={(e) => set_phone(e.currentTarget.value)} />
            </label>
          </>
        )}
        {service === 'education' && (
          <>
            <label class="field">
              <span>Exam PIN</span>
              <select name="product" required value={product_code} onChange={(e) => set_product_code(e.currentTarget.value)} aria-busy={products.loading ? 'true' : undefined}>
                <option value="">Choose an exam PIN…</option>
                {products.data?.products.map((p) => (
                  <option key={p.product_code} value={p.product_code}>
                    {narrow_name(p.exam)} · {p.name} · {naira(p.amount)}{p.amount_charged < p.amount ? ` (you pay ${naira(p.amount_charged)})` : ''}
                  </option>
                ))}
              </select>
            </label>
            <label class="field field-narrow">
              <span>Quantity{product ? ` (1 to ${product.quantity_max})` : ''}</span>
              <input name="quantity" inputMode="numeric" autoComplete="off" required maxLength={2} value={quantity_text} onInput={(e) => set_quantity_text(e.currentTarget.value)} />
            </label>
            {product?.requires_profile && (
              <label class="field">
                <span>JAMB profile ID</span>
                <input name="profile_id" inputMode="numeric" autoComplete="off" required maxLength={10} value={profile_id} onInput={(e) => set_profile_id(e.currentTarget.value)} />
              </label>
            )}
            <label class="field">
              <span>Buyer's phone number</span>
              <input name="phone" type="tel" inputMode="tel" autoComplete="off" required placeholder="08031234567" maxLength={14} value={phone} onInput={(e) => set_phone(e.currentTarget.value)} />
            </label>
          </>
        )}
        {service === 'internet' && (
          <>
            <label class="field field-narrow">
              <span>Provider</span>
              <select name="internet_provider" value={internet_provider} onChange={(e) => set_internet_provider(e.currentTarget.value)}>
                {internet_providers().map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
              </select>
            </label>
            <label class="field">
              <span>Internet plan</span>
              <select name="internet_plan" required value={internet_code} onChange={(e) => set_internet_code(e.currentTarget.value)} aria-busy={internet_plans.loading ? 'true' : undefined}>
                <option value="">Choose a plan…</option>
                {internet_plans.data?.plans.map((p) => (
                  <option key={p.plan_code} value={p.plan_code}>
                    {p.name} · {p.validity} · {naira(p.amount)}{p.amount_charged < p.amount ? ` (you pay ${naira(p.amount_charged)})` : ''}
                  </option>
                ))}
              </select>
            </label>
            {internet_provider === 'smile' && (
              <label class="field">
                <span>Smile account (number, phone or e-mail)</span>
                <input name="account" autoComplete="off" required maxLength={254} value={internet_account} onInput={(e) => set_internet_account(e.currentTarget.value)} />
              </label>
            )}
            <label class="field">
              <span>Phone number</span>
              <input name="phone" type="tel" inputMode="tel" autoComplete="off" required placeholder="08031234567" maxLength={14} value={phone} onInput={(e) => set_phone(e.currentTarget.value)} />
            </label>
          </>
        )}
        {service === 'data' && (
          <label class="field">
            <span>Data plan</span>
            <select name="plan_code" required value={plan_id} onChange={(e) => set_plan_id(e.currentTarget.value)} aria-busy={plans.loading ? 'true' : undefined}>
              <option value="">Choose a plan…</option>
              {plans.data?.plans.map((p) => (
                <option key={p.plan_id} value={p.plan_id}>
                  {p.name} · {p.validity} · {naira(p.amount)}{p.amount_charged < p.amount ? ` (you pay ${naira(p.amount_charged)})` : ''}
                </option>
              ))}
            </select>
          </label>
        )}
        {service === 'electricity' && (
          <>
            <label class="field">
              <span>Distribution company</span>
              <select name="disco" value={disco} onChange={(e) => set_disco(e.currentTarget.value)}>
                {discos.data?.discos.map((d) => <option key={d.service_id} value={d.service_id}>{d.name} ({d.code})</option>)}
              </select>
            </label>
            <fieldset class="field">
              <legend>Meter type</legend>
              <div class="choice-row">
                {(['prepaid', 'postpaid'] as const).map((option) => (
                  <label key={option} class="choice">
                    <input type="radio" name="meter_type" value={option} checked={meter_type === option} onChange={() => set_meter_type(option)} />
                    <span>{option === 'prepaid' ? 'Prepaid' : 'Postpaid'}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <label class="field">
              <span>Meter number</span>
              <input name="meter_number" inputMode="numeric" autoComplete="off" required maxLength={13} value={meter} onInput={(e) => set_meter(e.currentTarget.value)} />
            </label>
          </>
        )}
        {service === 'tv' && (
          <>
            <label class="field field-narrow">
              <span>TV provider</span>
              <select name="provider" value={tv_provider} onChange={(e) => set_tv_provider(e.currentTarget.value)}>
                {tv_providers().map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
              </select>
            </label>
            <label class="field">
              <span>Smartcard or IUC number</span>
              <input name="smartcard_number" inputMode="numeric" autoComplete="off" required maxLength={12} value={smartcard} onInput={(e) => set_smartcard(e.currentTarget.value)} />
            </label>
            <label class="field">
              <span>Package</span>
              <select name="package_code" required value={package_code} onChange={(e) => set_package_code(e.currentTarget.value)} aria-busy={packages.loading ? 'true' : undefined}>
                <option value="">Choose a package…</option>
                {packages.data?.packages.map((p) => (
                  <option key={p.package_code} value={p.package_code}>
                    {p.name} · {naira(p.amount)}{p.amount_charged < p.amount ? ` (you pay ${naira(p.amount_charged)})` : ''}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {needs_verification && (
          <div class="verify-row">
            <button type="button" class="button" onClick={verify} disabled={verifying || verify_input.trim() === ''}>
              {verifying ? 'Verifying…' : verify_label}
            </button>
            {verified && (
              <p class="verified" role="status" data-testid="verified-customer">
                ✓ {verified.customer_name}
                {verified.address && <span class="muted small"> · {verified.address}</span>}
                {verified.current_package && <span class="muted small"> · now on {verified.current_package}</span>}
              </p>
            )}
          </div>
        )}
        {(service === 'airtime' || service === 'electricity') && (
          <label class="field field-narrow">
            <span>Amount (₦)</span>
            <input name="amount" inputMode="decimal" autoComplete="off" required placeholder={service === 'airtime' ? '50 to 50,000' : '500 or more'} value={amount_text} onInput={(e) => set_amount_text(e.currentTarget.value)} />
          </label>
        )}
        <button type="submit" class="button button-primary" disabled={(needs_verification && verified === null) || quoting}>
          {service === 'international' ? 'Get the price' : 'Continue'}
        </button>
        <p class="muted small">Paid from your {wallet_name}. You confirm the amount and enter your PIN on the next step.</p>
      </form>
    </>
  );
}
