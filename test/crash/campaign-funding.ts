// The crash campaign's funding turns (test/crash/README.md "Funding callbacks and reconciles"): transfers into
// the accounts' dedicated accounts at three fake providers (test/helpers/fake-monnify.ts, fake-paystack.ts,
// fake-flutterwave-funding.ts: their documented answers over HTTP, their documented signatures), and what a
// provider or an operator sends about them: callbacks once, repeated or as concurrent copies, callbacks racing a
// reconcile, transfers whose callback never comes (only a reconcile finds them), and forged callbacks, which must
// credit nothing. Every request is an op of the model, sent and recorded by the campaign, cut by its kills and
// re-sent after its restarts like every other; the checkers judge them (checker.ts, api-checker.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { start_fake_monnify, type FakeMonnify } from '../helpers/fake-monnify.js';
import { paystack_secret_key, start_fake_paystack, type FakePaystack } from '../helpers/fake-paystack.js';
import { flutterwave_secret_hash, start_fake_flutterwave_funding, type FakeFlutterwaveFunding } from '../helpers/fake-flutterwave-funding.js';
import type { FakeCallback, FakeFundingProvider } from '../helpers/fake-funding.js';
import type { TestServer } from '../helpers/server.js';
import { callback_outcome, reconcile_counts, type Account, type Ack, type Environment, type FundingForgery, type FundingTransfer, type Model, type Op, type OpKind } from './model.js';

/** Funding turns are part of every campaign; CRASH_FUNDING=0 leaves them out (and configures no provider). */
export const funding_on = process.env.CRASH_FUNDING !== '0';

/** What the campaign lends the funding turns: its seeded randomness, its ops and its sending. */
export interface FundingHost {
  random(): number;
  op(round: number, kind: OpKind, account: Account, environment: Environment): Op;
  send(op: Op, round: number, violations: string[]): Promise<void>;
}

type Fake = FakeMonnify | FakePaystack | FakeFlutterwaveFunding;

export class FundingDriver {
  readonly model: Model;
  private fakes = new Map<string, Fake>();
  private readonly teardowns: (() => unknown)[] = [];
  private fabricated = 0;
  readonly totals = { turns: 0, transfers: 0, silent: 0, callbacks: 0, concurrent: 0, repeated: 0, raced: 0, forged: 0, reconciles: 0, credited: 0, already_credited: 0, exceptions: 0, refused_401: 0, reconcile_credited: 0 };

  constructor(model: Model, private readonly host: FundingHost) {
    this.model = model;
  }

  /** Starts the three fakes; FUNDING_PROVIDERS names them monnify, paystack and flw. */
  async start(): Promise<Record<string, string>[]> {
    const t = { teardown: (fn: () => unknown) => this.teardowns.push(fn) };
    const monnify = await start_fake_monnify();
    this.teardowns.push(() => monnify.stop());
    this.fakes.set('monnify', monnify);
    this.fakes.set('paystack', await start_fake_paystack(t));
    this.fakes.set('flw', await start_fake_flutterwave_funding(t));
    this.model.funding.providers = [...this.fakes].map(([name, fake]) => ({ name, kind: fake.kind }));
    return [...this.fakes].map(([name, fake]) => fake.entry(name));
  }

  async stop(): Promise<void> {
    for (const fn of this.teardowns.splice(0)) await Promise.resolve(fn()).catch(() => {});
  }

  /** Each account's dedicated accounts, made once at set-up through the API (live key, a BVN for Flutterwave). */
  async open_accounts(server: TestServer): Promise<void> {
    for (const account of this.model.accounts) {
      const made = await server.api('POST', '/v1/funding/accounts', { key: account.wallets.live.key, body: { bvn: '22212345678' } });
      const rows: { provider: string; account_number: string | null; status: string }[] = made.body?.data?.accounts ?? [];
      if (made.status !== 201 || rows.some((r) => r.status !== 'active')) throw new Error(`dedicated accounts: ${made.status} ${made.text}`);
      for (const { name } of this.model.funding.providers) {
        const numbers = rows.filter((r) => r.provider === name).map((r) => r.account_number!);
        if (numbers.length === 0) throw new Error(`dedicated accounts: none at ${name}: ${made.text}`);
        account.funding_numbers[name] = numbers;
      }
    }
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.host.random() * items.length)];
  }

  /** A transfer recorded by the fake (with the callback it would send, unless silent), in the model. */
  private pay(round: number, account: Account, provider: string, silent: boolean): { transfer: FundingTransfer; callback: FakeCallback | null } {
    const fake = this.fakes.get(provider)!;
    const account_number = this.pick(account.funding_numbers[provider]);
    const amount_kobo = 100_00 + Math.floor(this.host.random() * 50_000_00);
    const fee_kobo = 1 + Math.floor(amount_kobo * 0.005 * this.host.random());
    const args = { account_number, amount_kobo, fee_kobo };
    let reference: string;
    let callback: FakeCallback | null = null;
    if (silent) {
      reference = (fake.kind === 'monnify' ? (fake as FakeMonnify).record_transfer(args) : (fake as FakePaystack | FakeFlutterwaveFunding).pay_in_silently(args)).provider_reference;
      this.totals.silent++;
    } else {
      const paid = (fake as FakeFundingProvider).pay_in(args);
      reference = paid.provider_reference;
      callback = paid.callback;
    }
    const transfer: FundingTransfer = {
      provider, kind: fake.kind, provider_reference: reference, account_id: account.id, account_number, amount_kobo, fee_kobo,
      recorded_ms: Date.now(), round, disputed: false,
    };
    this.model.funding.transfers.push(transfer);
    this.totals.transfers++;
    return { transfer, callback };
  }

  private callback_op(round: number, account: Account, provider: string, provider_reference: string, transfer: FundingTransfer | null, forged: FundingForgery | null, callback: { raw: Buffer | string; headers: Record<string, string> }): Op {
    const op = this.host.op(round, 'funding_callback', account, 'live');
    op.path = `/callbacks/funding/${provider}`;
    op.funding_callback = { provider, provider_reference, transfer, forged, raw: callback.raw.toString(), headers: { ...callback.headers } };
    this.totals.callbacks++;
    if (forged !== null) this.totals.forged++;
    return op;
  }

  private reconcile_op(round: number, account: Account, provider: string | null): Op {
    const op = this.host.op(round, 'funding_reconcile', account, 'live');
    op.operator = true;
    op.path = '/admin/funding/reconcile';
    op.body = provider === null ? {} : { provider };
    op.reconcile = { provider, last_sent_ms: 0 };
    this.totals.reconciles++;
    return op;
  }

  /** Sends ops at once; rethrows the first failure (a kill) once all are done. */
  private async all(ops: Op[], round: number, violations: string[]): Promise<void> {
    const sent = await Promise.allSettled(ops.map((op) => this.host.send(op, round, violations)));
    for (const result of sent) if (result.status === 'rejected') throw result.reason;
  }

  /**
   * A forged callback: `reference`, the transfer id replaced by one the provider never made; `amount`, the
   * amount raised by 1 NGN. Signed as the provider documents it (`right`), with a wrong secret (`wrong`), or
   * keeping the genuine callback's signature (`keep`, so the body was altered after signing).
   */
  private forge(provider: string, genuine: FakeCallback, change: 'reference' | 'amount', sign: 'right' | 'wrong' | 'keep'): { raw: Buffer; headers: Record<string, string>; reference: string | null } {
    const fake = this.fakes.get(provider)!;
    const body = JSON.parse(genuine.raw.toString('utf8'));
    let reference: string | null = null;
    const n = ++this.fabricated;
    if (fake.kind === 'monnify') {
      const data = body.eventData;
      if (change === 'reference') data.transactionReference = data.paymentReference = reference = `MNFY|04|${Date.now()}|F${String(n).padStart(5, '0')}`;
      else data.amountPaid = data.totalPayable = Number(data.amountPaid) + 1;
    } else if (fake.kind === 'paystack') {
      if (change === 'reference') body.data.reference = reference = `dvaforged${this.model.run_id}${n}`;
      else body.data.amount = Number(body.data.amount) + 100;
    } else {
      if (change === 'reference') body.data.id = 990_000_000 + n, reference = String(body.data.id);
      else body.data.amount = body.data.charged_amount = Number(body.data.amount) + 1;
    }
    const raw = Buffer.from(JSON.stringify(body), 'utf8');
    const headers = { ...genuine.headers };
    if (sign !== 'keep') {
      const wrong = sign === 'wrong';
      if (fake.kind === 'monnify') headers['monnify-signature'] = wrong ? createHmac('sha512', randomBytes(16).toString('hex')).update(raw).digest('hex') : (fake as FakeMonnify).sign(raw);
      else if (fake.kind === 'paystack') headers['x-paystack-signature'] = createHmac('sha512', wrong ? 'sk_test_not_the_key' : paystack_secret_key).update(raw).digest('hex');
      else headers['verif-hash'] = wrong ? 'not-the-verif-hash' : flutterwave_secret_hash;
    }
    return { raw, headers, reference };
  }

  /**
   * One funding turn of a writer: a transfer and what is sent about it.
   * - 45%: its callback, once (55%), as 2 or 3 concurrent copies, and (25%) once more after the answer;
   * - 17%: no callback (a transfer whose callback never comes), and half the time a reconcile at once;
   * - 13%: its callback and a reconcile at the same moment;
   * - 25%: a forged callback (FundingForgery), in turn of the four kinds; once, or (20%) twice.
   */
  async turn(round: number, violations: string[]): Promise<void> {
    this.totals.turns++;
    const account = this.pick(this.model.accounts);
    const provider = this.pick(this.model.funding.providers).name;
    const roll = this.host.random();
    if (roll < 0.45) {
      const { transfer, callback } = this.pay(round, account, provider, false);
      const r = this.host.random();
      const copies = r < 0.55 ? 1 : r < 0.8 ? 2 : 3;
      if (copies > 1) this.totals.concurrent++;
      const op = () => this.callback_op(round, account, provider, transfer.provider_reference, transfer, null, callback!);
      await this.all(Array.from({ length: copies }, op), round, violations);
      if (this.host.random() < 0.25) {
        this.totals.repeated++;
        await this.all([op()], round, violations);
      }
    } else if (roll < 0.62) {
      this.pay(round, account, provider, true);
      if (this.host.random() < 0.5) await this.all([this.reconcile_op(round, account, this.host.random() < 0.5 ? null : provider)], round, violations);
    } else if (roll < 0.75) {
      const { transfer, callback } = this.pay(round, account, provider, false);
      this.totals.raced++;
      await this.all([this.callback_op(round, account, provider, transfer.provider_reference, transfer, null, callback!), this.reconcile_op(round, account, this.host.random() < 0.5 ? null : provider)], round, violations);
    } else {
      const kinds: FundingForgery[] = ['bad_signature', 'altered', 'unknown', 'disagrees'];
      const forgery = kinds[this.totals.forged % kinds.length];
      // A real transfer to take the genuine callback's shape from; its own callback is never sent (a reconcile
      // finds it), except as altered or disagreeing, which make it `disputed` where the provider's check is
      // the only guard (Flutterwave's verif-hash does not cover the body).
      const { transfer, callback } = this.pay(round, account, provider, false);
      let forged: { raw: Buffer; headers: Record<string, string>; reference: string | null };
      if (forgery === 'bad_signature') forged = this.forge(provider, callback!, 'reference', 'wrong');
      else if (forgery === 'unknown') forged = this.forge(provider, callback!, 'reference', 'right');
      else if (forgery === 'altered') forged = this.forge(provider, callback!, 'amount', 'keep');
      else forged = this.forge(provider, callback!, 'amount', 'right');
      if (forgery === 'disagrees' || (forgery === 'altered' && transfer.kind === 'flutterwave')) transfer.disputed = true;
      const about = forged.reference === null ? transfer : null;
      const reference = forged.reference ?? transfer.provider_reference;
      const copies = this.host.random() < 0.2 ? 2 : 1;
      await this.all(Array.from({ length: copies }, () => this.callback_op(round, account, provider, reference, about, forgery, forged)), round, violations);
    }
  }

  /** At the end: one reconcile of every provider, so that every transfer whose callback never came is credited. */
  final_reconcile_op(round: number): Op {
    return this.reconcile_op(round, this.model.accounts[0], null);
  }

  /** Whether an answer is one the callback or reconcile allows (docs/funding.md); counts the outcomes. */
  judge(op: Op, ack: Ack): boolean {
    if (op.kind === 'funding_reconcile') {
      const counts = reconcile_counts(ack);
      if (counts !== null) this.totals.reconcile_credited += counts.credited;
      return counts !== null;
    }
    const spec = op.funding_callback!;
    const outcome = callback_outcome(ack);
    if (outcome === 'credited') this.totals.credited++;
    if (outcome === 'already_credited') this.totals.already_credited++;
    if (outcome === 'exception') this.totals.exceptions++;
    if (outcome === 'invalid_signature') this.totals.refused_401++;
    switch (spec.forged) {
      case null:
        return outcome === 'credited' || outcome === 'already_credited';
      case 'bad_signature':
        return outcome === 'invalid_signature';
      case 'unknown':
        return outcome === 'exception';
      case 'altered':
        return spec.transfer?.kind === 'flutterwave' ? outcome === 'exception' || outcome === 'already_credited' : outcome === 'invalid_signature';
      case 'disagrees':
        // The reconciler may have credited the real transfer first: its credit, nothing more.
        return outcome === 'exception' || outcome === 'already_credited';
    }
  }

  summary(): string {
    const t = this.totals;
    return `funding: turns ${t.turns}, transfers ${t.transfers} (${t.silent} without a callback), callbacks ${t.callbacks} (concurrent copies in ${t.concurrent} turns, repeated ${t.repeated}, racing a reconcile ${t.raced}, forged ${t.forged}), `
      + `answered credited ${t.credited}, already credited ${t.already_credited}, exception ${t.exceptions}, 401 ${t.refused_401}; reconciles ${t.reconciles} (credited ${t.reconcile_credited})`;
  }
}
