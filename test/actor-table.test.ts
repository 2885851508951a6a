// The account actor tested in-process from tables of cases (ARCHITECTURE.md "Invariants and where they
// are checked"), beside the end-to-end tests that go through real sockets. One row per command and
// outcome: the starting state (built with the engine's own commands), the command, the outcome it must
// give (ok, or the exact refusal kind) and the state after it (balances in kobo, events emitted). After
// every row the runner checks what holds for all of them: the committed entries add up to the balance,
// a refusal stages nothing and changes nothing, and the account read back from the store by a second
// engine equals the one in memory.
import t from 'tap';
import { createHash } from 'node:crypto';
import {
  active_keys_max,
  pin_failures_max,
  pin_lock_ms,
  password_failures_max,
  kyc_daily_limit_kobo,
  type AccountActor,
} from '../src/engine/account-actor.js';
import type { NewKeyInput } from '../src/engine/account-command.js';
import type { Outcome, Refusal, RefusalKind } from '../src/engine/refusal.js';
import { refusal_reply } from '../src/front/outcome-errors.js';
import { claim_of } from '../src/engine/client-reference-claims.js';
import type { OrderPlacement, OrderRequest } from '../src/engine/account-orders.js';
import type { Authority } from '../src/engine/authority.js';
import { idempotency_ttl_ms } from '../src/engine/idempotency.js';
import { run_idempotent, type IdempotentRequest } from '../src/front/idempotent-run.js';
import { error_reply, success_reply, type Reply } from '../src/lib/reply.js';
import { api_error, type ErrorCode } from '../src/errors.js';
import { hash_secret } from '../src/lib/secrets.js';
import type { EventKind } from '../src/engine/engine.js';
import type { Environment } from '../src/engine/records.js';
import type { ProviderResult } from '../src/services/provider.js';
import type { OrderRecord } from '../src/services/order.js';
import { build_engine, memory_state, open_in_memory, type AccountState, read_back, stored_entries, sum_of_entries } from './helpers/engine-in-process.js';
import { lmdb_databases_opened, MemoryDatabase } from './helpers/memory-store.js';

/** 09:00 in Lagos on a Monday: every row's daily spend falls on the same Africa/Lagos day. */
const start_ms = Date.UTC(2026, 2, 2, 8, 0, 0);
// The commands are functions of state and input (issue 31): the table runs them over a store in memory,
// with no LMDB opened; its read-backs and the restart at the end read that memory anew.
const world = open_in_memory(start_ms);
const { engine, store, clock, events } = world;
t.teardown(() => world.close());

t.test('the table runs with no LMDB store', async (t) => {
  t.ok(store.orders instanceof MemoryDatabase && store.wallet_entries instanceof MemoryDatabase, 'the engine\'s databases are in memory');
  t.equal(lmdb_databases_opened(), 0, 'lmdb-js opened no database in this process');
});

// ---- Rows ---------------------------------------------------------------------------------------

/**
 * What a command gave: ok, the kind of the engine's refusal, the error code of an answer (a command run
 * under an idempotency key answers through the front end), or one of the actor's own non-errors.
 */
type Result = { ok: true; value?: unknown } | { ok: false; code: RefusalKind | ErrorCode | 'stale' | 'ignored' };

interface Account {
  actor: AccountActor;
  id: number;
}

interface Row {
  name: string;
  /** The account's profile at creation; the rest of the starting state is built by `given`. */
  kyc_level?: number;
  given?: (a: Account) => void | Promise<void>;
  when: (a: Account) => Result | Promise<Result>;
  outcome: 'ok' | RefusalKind | ErrorCode | 'stale' | 'ignored';
  /** Balances after the command, in kobo (an environment left out must hold 0). */
  balances?: Partial<Record<Environment, number>>;
  /** The events the command emits for this account, in order (none when left out). */
  events?: EventKind[];
  /** Whether the command leaves the account as it was: the default for every outcome but ok. */
  unchanged?: boolean;
  /** What else must hold after the command (an order's status, a PIN's failure count). */
  then?: (t: Checks, a: Account, result: Result) => void;
}

/** The assertions a row makes: tap's, or a recorder's when the table checks that a wrong row fails. */
interface Checks {
  equal(found: unknown, wanted: unknown, message: string): boolean;
  strictSame(found: unknown, wanted: unknown, message: string): boolean;
  ok(found: unknown, message: string): boolean;
  notOk(found: unknown, message: string): boolean;
}

let accounts_made = 0;

function new_account(kyc_level = 3): Account {
  accounts_made++;
  const created = engine.create_account({
    name: `Table reseller ${accounts_made}`, email: `table-${accounts_made}@example.ng`, phone: '+2348012345678',
    tier: 'standard', kyc_level, password_hash: 'password-hash-placeholder', pin_hash: null,
  });
  if (!created.ok) throw new Error(`account: ${created.refused.refusal}`);
  return { actor: created.value, id: created.value.id };
}

function from_outcome(outcome: Outcome<unknown>): Result {
  return outcome.ok ? { ok: true, value: outcome.value } : { ok: false, code: outcome.refused.refusal };
}

function from_verdict(verdict: 'ok' | 'stale' | Refusal): Result {
  if (verdict === 'ok') return { ok: true };
  if (verdict === 'stale') return { ok: false, code: 'stale' };
  return { ok: false, code: verdict.refusal };
}

/** A provider answer applied to an order: null means the actor ignored it (no open order by that reference). */
function from_order(order: OrderRecord | null): Result {
  return order === null ? { ok: false, code: 'ignored' } : { ok: true, value: order };
}

function from_reply(reply: Reply): Result {
  const body = JSON.parse(reply.body as string) as { success: boolean; error?: { code: ErrorCode } };
  return body.success ? { ok: true, value: reply } : { ok: false, code: body.error!.code };
}

function now_us(): number {
  return clock.now_us();
}

function fund(a: Account, kobo: number, environment: Environment = 'test', reference = `FUND-${a.id}-${environment}-${kobo}`): void {
  const outcome = engine.run(a.actor, { kind: 'credit', environment, amount_kobo: kobo, reference, description: 'Table funding' }, now_us());
  if (!outcome.ok) throw new Error(`funding: ${outcome.refused.refusal}`);
}

let orders_made = 0;
const day_us = 86_400_000_000;
/** Orders placed the day before a row, by account. */
const yesterdays = new Map<number, OrderRecord>();

/** Places an airtime order as the order desk does, without the desk (the reference is the table's own). */
interface PlaceOptions {
  environment?: Environment;
  client_reference?: string;
  commission_kobo?: number;
  /** When the order is placed (default: the clock's now). */
  at_us?: number;
  /** Who places it (default: no caller, engine/authority.ts). */
  authority?: Authority;
}

/** The request and placement of the table's next airtime order. */
function order_of(amount_kobo: number, options: PlaceOptions): { input: OrderRequest; placement: OrderPlacement } {
  orders_made++;
  const input: OrderRequest = {
    service_type: 'airtime', network: 'mtn', disco: null, provider: null, recipient: '08031234567', plan_code: null, plan: null,
    package_code: null, meter_type: null, amount_kobo, customer_name: null, client_reference: options.client_reference ?? null,
  };
  return {
    input,
    placement: {
      environment: options.environment ?? 'test', reference: `BV-TABLE-${String(orders_made).padStart(6, '0')}`, idempotency_key: null,
      provider_request_id: `table-request-${orders_made}`, indexed: true, commission_kobo: options.commission_kobo ?? 0,
      authority: options.authority ?? { kind: 'internal' },
    },
  };
}

function place(a: Account, amount_kobo: number, options: PlaceOptions = {}): Outcome<OrderRecord> {
  return engine.run(a.actor, { kind: 'place_order', ...order_of(amount_kobo, options) }, options.at_us ?? now_us());
}

function placed(a: Account, amount_kobo: number, options: PlaceOptions = {}): OrderRecord {
  const outcome = place(a, amount_kobo, options);
  if (!outcome.ok) throw new Error(`order: ${outcome.refused.refusal}`);
  return outcome.value;
}

/** The reference of the account's one open order (rows that settle an order place exactly one). */
function open_reference(a: Account): string {
  const references = [...a.actor.open_orders.keys()];
  if (references.length !== 1) throw new Error(`${references.length} open orders`);
  return references[0];
}

function answer(a: Account, result: ProviderResult, not_found_is_final = false): Result {
  const reference = open_reference(a);
  return from_order(engine.run(a.actor, { kind: 'provider_result', reference, result, not_found_is_final }, now_us()));
}

let keys_made = 0;
/** A key of another account, by the account of the row that tries to revoke it. */
const others_keys = new Map<number, number>();

function key_input(expires_ms: number | null = null): NewKeyInput {
  keys_made++;
  return {
    name: `key ${keys_made}`, environment: 'test', scopes: ['*'], ip_allowlist: [], rate_limit_per_minute: 60, expires_ms,
    key_hash: createHash('sha256').update(`table key ${keys_made}`).digest('hex'), key_hint: `bv_test_…${String(keys_made).padStart(4, '0')}`,
  };
}

function make_key(a: Account, expires_ms: number | null = null): number {
  const outcome = engine.run(a.actor, { kind: 'create_key', input: key_input(expires_ms) }, now_us());
  if (!outcome.ok) throw new Error(`key: ${outcome.refused.refusal}`);
  return outcome.value.id;
}

/** Wrong PIN verdicts applied one after the other, as purchases with a wrong PIN do. */
function wrong_pins(a: Account, count: number): void {
  for (let i = 0; i < count; i++) engine.run(a.actor, { kind: 'pin_verdict', correct: false, generation: a.actor.account.pin_generation, now_ms: clock.now_ms() });
}

// ---- The runner ---------------------------------------------------------------------------------

async function run_row(t: Checks, row: Row): Promise<Account> {
  const a = new_account(row.kyc_level);
  if (row.given) await row.given(a);
  await engine.journal.durable();
  const before = memory_state(a.actor);
  const entries_before = { live: stored_entries(store, a.id, 'live'), test: stored_entries(store, a.id, 'test') };
  const events_from = events.length;

  const result = await row.when(a);
  const staged = a.actor.settled() !== null;
  const emitted = events.slice(events_from).filter((e) => e.account_id === a.id).map((e) => e.kind);
  await engine.journal.durable();

  const label = result.ok ? 'ok' : result.code;
  t.equal(label, row.outcome, `the command's outcome is ${row.outcome}`);
  t.strictSame(emitted, row.events ?? [], `the command emits ${row.events?.join(', ') || 'no event'}`);
  const after = memory_state(a.actor);
  const unchanged = row.unchanged ?? row.outcome !== 'ok';
  if (unchanged) {
    t.notOk(staged, 'the command staged nothing');
    t.strictSame(after, before, 'the account in memory is as it was');
  }
  for (const environment of ['live', 'test'] as const) {
    const wallet = a.actor.wallets[environment];
    const entries = stored_entries(store, a.id, environment);
    if (unchanged) t.strictSame(entries, entries_before[environment], `no ${environment} entry was written`);
    t.equal(wallet.balance_kobo, row.balances?.[environment] ?? 0, `the ${environment} balance is ${row.balances?.[environment] ?? 0} kobo`);
    const sum = sum_of_entries(entries);
    t.equal(sum.balance_kobo, wallet.balance_kobo, `the committed ${environment} entries add up to the balance`);
    t.ok(sum.chained, `each committed ${environment} entry starts where the one before ended`);
    t.equal(entries.length, wallet.entries_count, `the ${environment} wallet counts its committed entries`);
  }
  t.strictSame(read_back(store, world.master_key, clock, a.id), after, 'the account read back from the store equals the one in memory');
  row.then?.(t, a, result);
  return a;
}

/** Each row's account as memory held it after the row: the last test reads them all from the store opened again. */
const final_states = new Map<number, AccountState>();

function table(title: string, rows: Row[]): void {
  t.test(title, async (t) => {
    for (const row of rows) {
      await t.test(row.name, async (t) => {
        const a = await run_row(t, row);
        final_states.set(a.id, memory_state(a.actor));
      });
    }
  });
}

// ---- Funding ------------------------------------------------------------------------------------

table('credits to a wallet', [
  {
    name: 'a credit to an empty test wallet adds one credit entry of its amount',
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 100_00, reference: `CREDIT-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'ok',
    balances: { test: 100_00 },
    events: ['wallet.credited'],
    then: (t, a) => t.equal(a.actor.wallets.test.credits_kobo, 100_00, 'the credits total counts it'),
  },
  {
    name: 'a live credit leaves the test wallet as it was',
    given: (a) => fund(a, 5_00, 'test'),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'live', amount_kobo: 250_55, reference: `CREDIT-LIVE-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'ok',
    balances: { live: 250_55, test: 5_00 },
    events: ['wallet.credited'],
  },
  {
    name: 'a credit of 0 kobo is refused as amount_not_positive',
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 0, reference: `ZERO-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'amount_not_positive',
  },
  {
    name: 'a credit repeated with its reference and amount returns the first credit and adds nothing',
    given: (a) => fund(a, 70_00, 'test', `REPEAT-${a.id}`),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 70_00, reference: `REPEAT-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'ok',
    unchanged: true,
    balances: { test: 70_00 },
    then: (t, _a, result) => t.equal((result as { value: { created: boolean } }).value.created, false, 'the answer says the credit was not created again'),
  },
  {
    name: 'a credit repeated in the same commit (staged, not yet durable) returns the first credit',
    when: (a) => {
      fund(a, 30_00, 'test', `SAME-BATCH-${a.id}`);
      return from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 30_00, reference: `SAME-BATCH-${a.id}`, description: 'Funding' }, now_us()));
    },
    outcome: 'ok',
    balances: { test: 30_00 },
    events: ['wallet.credited'],
    then: (t, a) => t.equal(a.actor.wallets.test.entries_count, 1, 'one credit entry only'),
  },
  {
    name: 'a funding reference reused with another amount is refused as funding_reference_amount_differs',
    given: (a) => fund(a, 70_00, 'test', `REUSED-${a.id}`),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 71_00, reference: `REUSED-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'funding_reference_amount_differs',
    balances: { test: 70_00 },
  },
  {
    name: 'another account\'s operator funding reference is refused as funding_reference_foreign',
    given: (a) => fund(new_account(), 10_00, 'test', `FOREIGN-${a.id}`),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 10_00, reference: `FOREIGN-${a.id}`, description: 'Funding' }, now_us())),
    outcome: 'funding_reference_foreign',
  },
  {
    name: 'another account\'s reference is a new sandbox top-up for this account (account scope)',
    given: (a) => fund(new_account(), 10_00, 'test', `SANDBOX-${a.id}`),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo: 10_00, reference: `SANDBOX-${a.id}`, description: 'Sandbox top-up', scope: 'account' }, now_us())),
    outcome: 'ok',
    balances: { test: 10_00 },
    events: ['wallet.credited'],
  },
]);

// ---- Purchases: placement -----------------------------------------------------------------------

table('placing an order debits the wallet in the same command', [
  {
    name: 'an order of exactly the balance is placed and leaves 0 kobo',
    given: (a) => fund(a, 100_00),
    when: (a) => from_outcome(place(a, 100_00)),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
    then: (t, a, result) => {
      const order = (result as { value: OrderRecord }).value;
      t.equal(order.status, 'pending', 'the order is pending');
      t.equal(a.actor.open_orders.get(order.reference)?.status, 'pending', 'the order is open');
      t.equal(a.actor.wallets.test.spend_day_kobo, 100_00, 'the day\'s spend counts it');
    },
  },
  {
    name: 'an order one kobo above the balance is refused as insufficient_funds',
    given: (a) => fund(a, 100_00),
    when: (a) => from_outcome(place(a, 100_01)),
    outcome: 'insufficient_funds',
    balances: { test: 100_00 },
  },
  {
    name: 'with a commission the wallet pays the discounted price, judged at the exact kobo',
    given: (a) => fund(a, 97_00),
    when: (a) => from_outcome(place(a, 100_00, { commission_kobo: 3_00 })),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
    then: (t, _a, result) => t.equal((result as { value: OrderRecord }).value.amount_charged_kobo, 97_00, 'the order was charged 97 NGN'),
  },
  {
    name: 'an order up to the KYC level 1 daily limit exactly is placed',
    kyc_level: 1,
    given: (a) => {
      fund(a, 60_000_00);
      placed(a, 49_999_00);
    },
    when: (a) => from_outcome(place(a, 1_00)),
    outcome: 'ok',
    balances: { test: 60_000_00 - kyc_daily_limit_kobo[1] },
    events: ['wallet.debited'],
  },
  {
    name: 'an order one kobo past the KYC level 1 daily limit is refused as daily_limit_exceeded',
    kyc_level: 1,
    given: (a) => {
      fund(a, 60_000_00);
      placed(a, 49_999_00);
    },
    when: (a) => from_outcome(place(a, 1_01)),
    outcome: 'daily_limit_exceeded',
    balances: { test: 60_000_00 - 49_999_00 },
  },
  {
    name: 'KYC level 0 allows no purchase: daily_limit_exceeded',
    kyc_level: 0,
    given: (a) => fund(a, 10_00),
    when: (a) => from_outcome(place(a, 1_00)),
    outcome: 'daily_limit_exceeded',
    balances: { test: 10_00 },
  },
  {
    name: 'yesterday\'s spend does not count against today\'s limit',
    kyc_level: 1,
    given: (a) => {
      fund(a, 100_000_00);
      placed(a, kyc_daily_limit_kobo[1], { at_us: now_us() - day_us });
    },
    when: (a) => from_outcome(place(a, kyc_daily_limit_kobo[1])),
    outcome: 'ok',
    balances: { test: 100_000_00 - 2 * kyc_daily_limit_kobo[1] },
    events: ['wallet.debited'],
    then: (t, a) => t.equal(a.actor.wallets.test.spend_day_kobo, kyc_daily_limit_kobo[1], 'the day\'s spend counts today\'s order only'),
  },
  {
    name: 'a funded test wallet pays nothing live: insufficient_funds',
    given: (a) => fund(a, 100_00, 'test'),
    when: (a) => from_outcome(place(a, 1_00, { environment: 'live' })),
    outcome: 'insufficient_funds',
    balances: { test: 100_00 },
  },
  {
    name: 'the operator\'s daily limit replaces the KYC level\'s',
    given: (a) => {
      fund(a, 100_00);
      engine.run(a.actor, { kind: 'update_profile', patch: { daily_limit_kobo: 20_00 } });
    },
    when: (a) => from_outcome(place(a, 20_01)),
    outcome: 'daily_limit_exceeded',
    balances: { test: 100_00 },
  },
  {
    name: 'a client reference already used by a committed order is refused as duplicate_client_reference',
    given: (a) => {
      fund(a, 100_00);
      if (!place(a, 10_00, { client_reference: 'INV-1' }).ok) throw new Error('first order');
    },
    when: (a) => from_outcome(place(a, 10_00, { client_reference: 'INV-1' })),
    outcome: 'duplicate_client_reference',
    balances: { test: 90_00 },
  },
  {
    name: 'a client reference claimed in the same commit is refused too, and one order holds it',
    given: (a) => fund(a, 100_00),
    when: (a) => {
      if (!place(a, 10_00, { client_reference: 'INV-2' }).ok) throw new Error('first order');
      return from_outcome(place(a, 10_00, { client_reference: 'INV-2' }));
    },
    outcome: 'duplicate_client_reference',
    unchanged: false,
    balances: { test: 90_00 },
    events: ['wallet.debited'],
    then: (t, a) => t.equal(claim_of(engine.journal, store, a.id, 'test', 'INV-2'), open_reference(a), 'the claim names the first order'),
  },
  {
    name: 'the same client reference in the other environment is another claim',
    given: (a) => {
      fund(a, 100_00, 'test');
      fund(a, 100_00, 'live');
      if (!place(a, 10_00, { client_reference: 'INV-3' }).ok) throw new Error('first order');
    },
    when: (a) => from_outcome(place(a, 10_00, { client_reference: 'INV-3', environment: 'live' })),
    outcome: 'ok',
    balances: { test: 90_00, live: 90_00 },
    events: ['wallet.debited'],
  },
  {
    name: 'a debit that takes the balance below the low-balance threshold emits wallet.low_balance once',
    given: (a) => {
      fund(a, 100_00);
      engine.run(a.actor, { kind: 'set_low_balance_threshold', environment: 'test', threshold_kobo: 50_00 });
    },
    when: (a) => from_outcome(place(a, 50_01)),
    outcome: 'ok',
    balances: { test: 49_99 },
    events: ['wallet.debited', 'wallet.low_balance'],
  },
  {
    name: 'a debit from a balance already below the threshold emits no second alert',
    given: (a) => {
      fund(a, 100_00);
      engine.run(a.actor, { kind: 'set_low_balance_threshold', environment: 'test', threshold_kobo: 50_00 });
      placed(a, 60_00);
    },
    when: (a) => from_outcome(place(a, 10_00)),
    outcome: 'ok',
    balances: { test: 30_00 },
    events: ['wallet.debited'],
  },
]);

// ---- Purchases: settlement ----------------------------------------------------------------------

/** A key of the account with these fields changed (an allowlist, scopes), created by the account's own command. */
function make_key_with(a: Account, patch: Partial<NewKeyInput>): number {
  const outcome = engine.run(a.actor, { kind: 'create_key', input: { ...key_input(), ...patch } }, now_us());
  if (!outcome.ok) throw new Error(`key: ${outcome.refused.refusal}`);
  return outcome.value.id;
}

/** The authority of a purchase route's request with the account's one key (docs/decisions.md "Authority at the debit"). */
function by_key(a: Account, remote_ip = '127.0.0.1'): Authority {
  return { kind: 'api_key', key_id: [...a.actor.keys.keys()][0], scope: 'services:purchase', remote_ip };
}

table('the debit checks the request\'s authority again', [
  {
    name: 'an order placed with an active key is debited',
    given: (a) => {
      fund(a, 100_00);
      make_key(a);
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a) })),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
  },
  {
    name: 'an order whose key was revoked before its debit is refused as key_revoked',
    given: (a) => {
      fund(a, 100_00);
      engine.run(a.actor, { kind: 'revoke_key', key_id: make_key(a) }, now_us());
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a) })),
    outcome: 'key_revoked',
    balances: { test: 100_00 },
  },
  {
    name: 'an order whose key expires exactly at its debit is refused as key_expired',
    given: (a) => {
      fund(a, 100_00);
      make_key(a, clock.now_ms());
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a) })),
    outcome: 'key_expired',
    balances: { test: 100_00 },
  },
  {
    name: 'an order whose key expires one millisecond after its debit is debited',
    given: (a) => {
      fund(a, 100_00);
      make_key(a, clock.now_ms() + 1);
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a) })),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
  },
  {
    name: 'an order from an address the key\'s allowlist holds is debited',
    given: (a) => {
      fund(a, 100_00);
      make_key_with(a, { ip_allowlist: ['10.0.0.0/8'] });
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a, '10.1.2.3') })),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
  },
  {
    name: 'an order from an address outside the key\'s allowlist is refused as key_ip_not_allowed',
    given: (a) => {
      fund(a, 100_00);
      make_key_with(a, { ip_allowlist: ['10.0.0.0/8'] });
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a, '192.168.1.1') })),
    outcome: 'key_ip_not_allowed',
    balances: { test: 100_00 },
  },
  {
    name: 'an order with a key lacking the purchase scope is refused as key_scope_missing',
    given: (a) => {
      fund(a, 100_00);
      make_key_with(a, { scopes: ['wallet:read'] });
    },
    when: (a) => from_outcome(place(a, 100_00, { authority: by_key(a) })),
    outcome: 'key_scope_missing',
    balances: { test: 100_00 },
  },
  {
    name: 'an order whose dashboard session ended before its debit is refused as session_ended',
    given: (a) => fund(a, 100_00),
    when: (a) => from_outcome(place(a, 100_00, { authority: { kind: 'session', still_valid: () => false } })),
    outcome: 'session_ended',
    balances: { test: 100_00 },
  },
  {
    name: 'an order whose dashboard session still holds is debited',
    given: (a) => fund(a, 100_00),
    when: (a) => from_outcome(place(a, 100_00, { authority: { kind: 'session', still_valid: () => true } })),
    outcome: 'ok',
    balances: { test: 0 },
    events: ['wallet.debited'],
  },
]);

table('a provider\'s answer settles an open order', [
  {
    name: 'delivered: the order ends delivered and leaves the open orders, the wallet untouched',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => answer(a, { outcome: 'delivered', provider_reference: 'PRV-1' }),
    outcome: 'ok',
    balances: { test: 60_00 },
    events: ['transaction.completed'],
    then: (t, a, result) => {
      const order = (result as { value: OrderRecord }).value;
      t.equal(order.status, 'delivered', 'the order is delivered');
      t.equal(a.actor.open_orders.size, 0, 'no order is open');
      t.equal(store.orders.get([a.id, 'test', order.seq])?.status, 'delivered', 'the store holds it delivered');
    },
  },
  {
    name: 'failed: the order ends failed and its exact amount is refunded by one reversal',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => answer(a, { outcome: 'failed', reason: 'Recipient barred.' }),
    outcome: 'ok',
    balances: { test: 100_00 },
    events: ['transaction.failed', 'wallet.reversed'],
    then: (t, a, result) => {
      const order = (result as { value: OrderRecord }).value;
      t.equal(order.status, 'failed', 'the order failed');
      t.equal(order.reversed, true, 'the order says it was refunded');
      t.equal(a.actor.wallets.test.reversals_kobo, 40_00, 'one reversal of 40 NGN');
      t.equal(a.actor.wallets.test.spend_day_kobo, 0, 'the day\'s spend is given back');
    },
  },
  {
    name: 'a second failed answer after the refund is ignored: refunded exactly once',
    given: (a) => {
      fund(a, 100_00);
      const order = placed(a, 40_00);
      engine.run(a.actor, { kind: 'provider_result', reference: order.reference, result: { outcome: 'failed', reason: 'first' }, not_found_is_final: false }, now_us());
    },
    when: (a) => from_order(engine.run(a.actor, { kind: 'provider_result', reference: `BV-TABLE-${String(orders_made).padStart(6, '0')}`, result: { outcome: 'failed', reason: 'again' }, not_found_is_final: false }, now_us())),
    outcome: 'ignored',
    balances: { test: 100_00 },
  },
  {
    name: 'a delivered answer after the order failed is ignored',
    given: (a) => {
      fund(a, 100_00);
      const order = placed(a, 40_00);
      engine.run(a.actor, { kind: 'provider_result', reference: order.reference, result: { outcome: 'failed', reason: 'first' }, not_found_is_final: false }, now_us());
    },
    when: (a) => from_order(engine.run(a.actor, { kind: 'provider_result', reference: `BV-TABLE-${String(orders_made).padStart(6, '0')}`, result: { outcome: 'delivered' }, not_found_is_final: false }, now_us())),
    outcome: 'ignored',
    balances: { test: 100_00 },
  },
  {
    name: 'refunding yesterday\'s order gives back nothing of today\'s spend',
    given: (a) => {
      fund(a, 100_00);
      yesterdays.set(a.id, placed(a, 40_00, { at_us: now_us() - day_us }));
      placed(a, 10_00);
    },
    when: (a) => from_order(engine.run(a.actor, { kind: 'provider_result', reference: yesterdays.get(a.id)!.reference, result: { outcome: 'failed', reason: 'late failure' }, not_found_is_final: false }, now_us())),
    outcome: 'ok',
    balances: { test: 90_00 },
    events: ['transaction.failed', 'wallet.reversed'],
    then: (t, a) => t.equal(a.actor.wallets.test.spend_day_kobo, 10_00, 'today\'s spend is still 10 NGN'),
  },
  {
    name: 'processing: the order stays open as processing, the wallet untouched',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => answer(a, { outcome: 'processing', provider_reference: 'PRV-2' }),
    outcome: 'ok',
    balances: { test: 60_00 },
    events: ['transaction.processing'],
    then: (t, a) => t.equal(a.actor.open_orders.get(open_reference(a))?.status, 'processing', 'the open order is processing'),
  },
  {
    name: 'not found while the provider may still have it: processing, no refund',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => answer(a, { outcome: 'not_found' }),
    outcome: 'ok',
    balances: { test: 60_00 },
    events: ['transaction.processing'],
  },
  {
    name: 'not found when that is final: failed and refunded',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => answer(a, { outcome: 'not_found' }, true),
    outcome: 'ok',
    balances: { test: 100_00 },
    events: ['transaction.failed', 'wallet.reversed'],
  },
  {
    name: 'a sandbox order paid in the command that places it is written once, delivered',
    given: (a) => fund(a, 100_00),
    when: (a) => {
      const outcome = engine.run(a.actor, { kind: 'purchase_now', ...order_of(25_00, {}), answer: () => ({ outcome: 'delivered' }), remember: null }, now_us());
      return outcome.ok ? from_order(outcome.value.answered) : from_outcome(outcome);
    },
    outcome: 'ok',
    balances: { test: 75_00 },
    events: ['wallet.debited', 'transaction.completed'],
    then: (t, a) => t.equal(a.actor.open_orders.size, 0, 'no order is open'),
  },
  {
    name: 'escalating an order past its promise puts it in review, once, with transaction.delayed',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
      answer(a, { outcome: 'processing' });
    },
    when: (a) => {
      const order = a.actor.open_orders.get(open_reference(a))!;
      const review_by_us = order.created_us + day_us;
      const escalated = engine.run(a.actor, { kind: 'escalate_order', order, review_by_us }, now_us());
      // A second escalation of the escalated order changes nothing and emits nothing.
      return from_order(engine.run(a.actor, { kind: 'escalate_order', order: escalated, review_by_us }, now_us()));
    },
    outcome: 'ok',
    balances: { test: 60_00 },
    events: ['transaction.delayed'],
    then: (t, a) => {
      const order = a.actor.open_orders.get(open_reference(a))!;
      t.equal(order.status, 'processing', 'the escalated order is still processing');
      t.equal(order.needs_review, true, 'and in review');
      t.equal(order.expected_final_us, order.created_us + day_us, 'its promise is the operator\'s deadline');
      t.ok(typeof order.delayed_us === 'number', 'with when it was escalated');
    },
  },
  {
    name: 'cancelling an order not yet sent refunds it in the same command, reason cancelled',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'cancel_order', reference: open_reference(a) }, now_us())),
    outcome: 'ok',
    balances: { test: 100_00 },
    events: ['transaction.failed', 'wallet.reversed'],
    then: (t, a) => t.equal(a.actor.open_orders.size, 0, 'the order is no longer open'),
  },
  {
    name: 'cancelling an order already sent is refused as order_not_cancellable',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
      answer(a, { outcome: 'processing' });
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'cancel_order', reference: open_reference(a) }, now_us())),
    outcome: 'order_not_cancellable',
    balances: { test: 60_00 },
  },
  {
    name: 'the operator resolving an unknown order is refused as order_not_open',
    given: (a) => fund(a, 100_00),
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'resolve_order', reference: 'BV-NO-SUCH-ORDER', outcome: 'failed' }, now_us())),
    outcome: 'order_not_open',
    balances: { test: 100_00 },
  },
  {
    name: 'the operator failing an open order refunds it',
    given: (a) => {
      fund(a, 100_00);
      placed(a, 40_00);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'resolve_order', reference: open_reference(a), outcome: 'failed' }, now_us())),
    outcome: 'ok',
    balances: { test: 100_00 },
    events: ['transaction.failed', 'wallet.reversed'],
  },
]);

// ---- Keys ---------------------------------------------------------------------------------------

table('API keys', [
  {
    name: 'a new key is stored, listed under its account and findable by its hash',
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'create_key', input: key_input() }, now_us())),
    outcome: 'ok',
    then: (t, a, result) => {
      const record = (result as { value: { id: number; key_hash: string } }).value;
      t.equal(engine.key_by_hash(record.key_hash)?.record.id, record.id, 'the key is found by its hash');
      t.strictSame(store.key_hashes.get(record.key_hash), [a.id, record.id], 'the store indexes its hash');
    },
  },
  {
    name: `a key beyond ${active_keys_max} active ones is refused as keys_limit_reached`,
    given: (a) => {
      for (let i = 0; i < active_keys_max; i++) make_key(a);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'create_key', input: key_input() }, now_us())),
    outcome: 'keys_limit_reached',
  },
  {
    name: 'an expired key takes no place among the active ones',
    given: (a) => {
      make_key(a, clock.now_ms() - 1);
      for (let i = 1; i < active_keys_max; i++) make_key(a);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'create_key', input: key_input() }, now_us())),
    outcome: 'ok',
  },
  {
    name: 'a revoked key leaves the hash lookup at once and stays listed under its account',
    given: (a) => {
      make_key(a);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'revoke_key', key_id: [...a.actor.keys.keys()][0] }, now_us())),
    outcome: 'ok',
    then: (t, a) => {
      const record = [...a.actor.keys.values()][0].record;
      t.equal(record.revoked_us, now_us(), 'the key is revoked now');
      t.equal(engine.key_by_hash(record.key_hash), undefined, 'its hash finds nothing');
      t.equal(store.key_hashes.get(record.key_hash), undefined, 'the store no longer indexes its hash');
    },
  },
  {
    name: 'revoking a key twice is refused as key_not_found',
    given: (a) => {
      engine.run(a.actor, { kind: 'revoke_key', key_id: make_key(a) }, now_us());
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'revoke_key', key_id: [...a.actor.keys.keys()][0] }, now_us())),
    outcome: 'key_not_found',
  },
  {
    name: 'revoking another account\'s key is refused as key_not_found',
    given: (a) => {
      others_keys.set(a.id, make_key(new_account()));
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'revoke_key', key_id: others_keys.get(a.id)! }, now_us())),
    outcome: 'key_not_found',
  },
  {
    name: 'rotating at the limit: the old key revoked first, then the new one fits',
    given: (a) => {
      for (let i = 0; i < active_keys_max; i++) make_key(a);
    },
    when: (a) => {
      const revoked = engine.run(a.actor, { kind: 'revoke_key', key_id: [...a.actor.keys.keys()][0] }, now_us());
      if (!revoked.ok) return from_outcome(revoked);
      return from_outcome(engine.run(a.actor, { kind: 'create_key', input: key_input() }, now_us()));
    },
    outcome: 'ok',
    then: (t, a) => t.equal(a.actor.active_keys().length, active_keys_max, `still ${active_keys_max} active keys`),
  },
]);

// ---- PIN and password ---------------------------------------------------------------------------

function with_pin(a: Account, pin_hash = 'pin-hash-1'): void {
  engine.run(a.actor, { kind: 'set_pin', pin_hash });
}

function verdict(a: Account, correct: boolean, now_ms = clock.now_ms()): Result {
  return from_verdict(engine.run(a.actor, { kind: 'pin_verdict', correct, generation: a.actor.account.pin_generation, now_ms }));
}

table('the transaction PIN', [
  {
    name: 'setting a first PIN stores its hash at generation 1',
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'set_pin', pin_hash: 'pin-hash-1' })),
    outcome: 'ok',
    then: (t, a) => {
      t.equal(a.actor.account.pin_hash, 'pin-hash-1', 'the hash is stored');
      t.equal(a.actor.account.pin_generation, 1, 'generation 1');
    },
  },
  {
    name: 'changing the PIN moves its generation on and clears the failures and the lock',
    given: (a) => {
      with_pin(a);
      wrong_pins(a, pin_failures_max);
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'set_pin', pin_hash: 'pin-hash-2' })),
    outcome: 'ok',
    then: (t, a) => {
      t.equal(a.actor.account.pin_generation, 2, 'generation 2');
      t.equal(a.actor.account.pin_failures, 0, 'no failure counted');
      t.equal(a.actor.account.pin_locked_until_ms, 0, 'not locked');
    },
  },
  {
    name: 'a right PIN with no failure counted stages nothing',
    given: (a) => with_pin(a),
    when: (a) => verdict(a, true),
    outcome: 'ok',
    unchanged: true,
  },
  {
    name: 'a right PIN after wrong ones resets the count',
    given: (a) => {
      with_pin(a);
      wrong_pins(a, 2);
    },
    when: (a) => verdict(a, true),
    outcome: 'ok',
    then: (t, a) => t.equal(a.actor.account.pin_failures, 0, 'the count is reset'),
  },
  {
    name: 'a wrong PIN is refused as pin_incorrect and counted (the one refusal that changes the account)',
    given: (a) => with_pin(a),
    when: (a) => verdict(a, false),
    outcome: 'pin_incorrect',
    unchanged: false,
    then: (t, a) => t.equal(a.actor.account.pin_failures, 1, 'one failure counted'),
  },
  {
    name: `the ${pin_failures_max}th wrong PIN in a row locks purchases for 30 minutes: pin_locked`,
    given: (a) => {
      with_pin(a);
      wrong_pins(a, pin_failures_max - 1);
    },
    when: (a) => verdict(a, false),
    outcome: 'pin_locked',
    unchanged: false,
    then: (t, a) => {
      t.equal(a.actor.account.pin_locked_until_ms, clock.now_ms() + pin_lock_ms, 'locked for 30 minutes from now');
      t.equal(a.actor.account.pin_failures, 0, 'the count starts again after the lock');
    },
  },
  {
    name: 'a right PIN while locked is refused as pin_locked and changes nothing',
    given: (a) => {
      with_pin(a);
      wrong_pins(a, pin_failures_max);
    },
    when: (a) => verdict(a, true),
    outcome: 'pin_locked',
  },
  {
    name: 'a right PIN once the lock has passed is accepted',
    given: (a) => {
      with_pin(a);
      wrong_pins(a, pin_failures_max);
    },
    when: (a) => verdict(a, true, clock.now_ms() + pin_lock_ms),
    outcome: 'ok',
    unchanged: true,
  },
  {
    name: 'a verdict about an older PIN generation is stale and changes nothing',
    given: (a) => {
      with_pin(a);
      with_pin(a, 'pin-hash-2');
    },
    when: (a) => from_verdict(engine.run(a.actor, { kind: 'pin_verdict', correct: false, generation: 1, now_ms: clock.now_ms() })),
    outcome: 'stale',
  },
  {
    name: 'a PIN verdict on an account with no PIN is refused as pin_not_set',
    when: (a) => verdict(a, true),
    outcome: 'pin_not_set',
  },
  {
    name: 'a PIN checked by scrypt first (the prefetch), then applied: accepted and remembered',
    given: async (a) => with_pin(a, await hash_secret('4321')),
    when: async (a) => {
      const generation = a.actor.account.pin_generation;
      const correct = await engine.pin_cache.verify(a.id, generation, '4321', a.actor.account.pin_hash!);
      if (correct === 'busy') return { ok: false, code: 'pin_check_busy' };
      return from_verdict(engine.run(a.actor, { kind: 'pin_verdict', correct, generation, now_ms: clock.now_ms() }));
    },
    outcome: 'ok',
    unchanged: true,
    then: (t, a) => t.equal(engine.pin_cache.check(a.id, a.actor.account.pin_generation, '4321'), true, 'the next purchase needs no scrypt'),
  },
  {
    name: 'a wrong PIN checked by scrypt is refused as pin_incorrect',
    given: async (a) => with_pin(a, await hash_secret('4321')),
    when: async (a) => {
      const generation = a.actor.account.pin_generation;
      const correct = await engine.pin_cache.verify(a.id, generation, '9999', a.actor.account.pin_hash!);
      if (correct === 'busy') return { ok: false, code: 'pin_check_busy' };
      return from_verdict(engine.run(a.actor, { kind: 'pin_verdict', correct, generation, now_ms: clock.now_ms() }));
    },
    outcome: 'pin_incorrect',
    unchanged: false,
    then: (t, a) => t.equal(a.actor.account.pin_failures, 1, 'one failure counted'),
  },
]);

table('the dashboard password confirmation', [
  {
    name: 'a wrong password is refused as password_incorrect and counted',
    when: (a) => from_verdict(engine.run(a.actor, { kind: 'password_verdict', correct: false, now_ms: clock.now_ms() })),
    outcome: 'password_incorrect',
    unchanged: false,
    then: (t, a) => t.equal(a.actor.account.password_failures, 1, 'one failure counted'),
  },
  {
    name: `the ${password_failures_max}th wrong password locks it: password_locked`,
    given: (a) => {
      for (let i = 1; i < password_failures_max; i++) engine.run(a.actor, { kind: 'password_verdict', correct: false, now_ms: clock.now_ms() });
    },
    when: (a) => from_verdict(engine.run(a.actor, { kind: 'password_verdict', correct: false, now_ms: clock.now_ms() })),
    outcome: 'password_locked',
    unchanged: false,
    then: (t, a) => t.ok(a.actor.account.password_locked_until_ms > clock.now_ms(), 'locked from now on'),
  },
  {
    name: 'a right password while locked is refused as password_locked and changes nothing',
    given: (a) => {
      for (let i = 0; i < password_failures_max; i++) engine.run(a.actor, { kind: 'password_verdict', correct: false, now_ms: clock.now_ms() });
    },
    when: (a) => from_verdict(engine.run(a.actor, { kind: 'password_verdict', correct: true, now_ms: clock.now_ms() })),
    outcome: 'password_locked',
  },
]);

// ---- Account settings ---------------------------------------------------------------------------

table('account settings', [
  {
    name: 'the operator sets the KYC level, the tier and a daily limit in one change',
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'update_profile', patch: { kyc_level: 2, tier: 'gold', daily_limit_kobo: 75_000_00 } })),
    outcome: 'ok',
    then: (t, a) => {
      t.equal(a.actor.account.kyc_level, 2, 'KYC level 2');
      t.equal(a.actor.account.tier, 'gold', 'tier gold');
      t.strictSame(a.actor.daily_spend('test', clock.now_ms()), { spent_kobo: 0, limit_kobo: 75_000_00 }, 'the daily limit is the operator\'s');
    },
  },
  {
    name: 'clearing the daily limit gives the KYC level\'s back',
    given: (a) => {
      engine.run(a.actor, { kind: 'update_profile', patch: { daily_limit_kobo: 10_00 } });
    },
    when: (a) => from_outcome(engine.run(a.actor, { kind: 'update_profile', patch: { daily_limit_kobo: null } })),
    outcome: 'ok',
    then: (t, a) => t.equal(a.actor.daily_spend('test', clock.now_ms()).limit_kobo, kyc_daily_limit_kobo[3], 'the KYC level 3 limit applies'),
  },
  {
    name: 'a low-balance threshold is kept in the wallet of its environment only',
    when: (a) => {
      engine.run(a.actor, { kind: 'set_low_balance_threshold', environment: 'live', threshold_kobo: 500_00 });
      return { ok: true };
    },
    outcome: 'ok',
    then: (t, a) => {
      t.equal(a.actor.wallets.live.low_balance_threshold_kobo, 500_00, 'the live threshold is 500 NGN');
      t.equal(a.actor.wallets.test.low_balance_threshold_kobo ?? null, null, 'the test wallet has none');
    },
  },
  {
    name: 'a low-balance threshold is cleared with null',
    given: (a) => engine.run(a.actor, { kind: 'set_low_balance_threshold', environment: 'test', threshold_kobo: 500_00 }),
    when: (a) => {
      engine.run(a.actor, { kind: 'set_low_balance_threshold', environment: 'test', threshold_kobo: null });
      return { ok: true };
    },
    outcome: 'ok',
    then: (t, a) => t.equal(a.actor.wallets.test.low_balance_threshold_kobo, null, 'no threshold'),
  },
  {
    name: 'a second account with the same email in another case is refused as account.email_taken',
    when: (a) => from_outcome(engine.create_account({
      name: 'Copy', email: a.actor.account.email.toUpperCase(), phone: '+2348012345678', tier: 'standard', kyc_level: 1,
      password_hash: 'password-hash-placeholder', pin_hash: null,
    })),
    outcome: 'email_taken',
  },
]);

// ---- Idempotency --------------------------------------------------------------------------------

let top_ups_made = 0;
const request_id = 'req_actor_table';

/**
 * A sandbox top-up under an idempotency key, as its route runs it: each execution is a new funding
 * reference, so a second execution would credit again and only the idempotency record prevents it. The answer
 * is handed on once the account's changes as of it are durable, as the front end's gate does (HttpFront.send_durable).
 */
async function top_up(a: Account, key: string, fingerprint: string, amount_kobo: number, now_ms = clock.now_ms()): Promise<Reply> {
  const request: IdempotentRequest = { actor: a.actor, environment: 'test', key, fingerprint, request_id, now_ms };
  const reply = await run_idempotent(request, () => {
    top_ups_made++;
    if (amount_kobo === 0) return error_reply(request_id, api_error('service.unavailable', 'The bank is down.'));
    const outcome = engine.run(a.actor, { kind: 'credit', environment: 'test', amount_kobo, reference: `TOP-UP-${top_ups_made}`, description: 'Sandbox top-up', scope: 'account' }, now_us());
    return outcome.ok ? success_reply(request_id, 201, { entry_id: outcome.value.entry.id }) : refusal_reply(request_id, outcome.refused);
  });
  await a.actor.settled();
  return reply;
}

function replayed(reply: unknown): boolean {
  return (reply as Reply).headers.some(([name, value]) => name === 'Idempotent-Replayed' && value === 'true');
}

const first_replies = new Map<number, Reply>();

table('commands under an idempotency key', [
  {
    name: 'a first request runs its command and remembers its answer in the same commit',
    when: async (a) => from_reply(await top_up(a, 'K-1', 'fingerprint-1', 10_00)),
    outcome: 'ok',
    balances: { test: 10_00 },
    events: ['wallet.credited'],
    then: (t, a) => {
      const record = store.idempotency.get([a.id, 'test', 'K-1']) as { status: number; complete: boolean } | undefined;
      t.equal(record?.status, 201, 'the record holds the 201');
      t.equal(record?.complete, true, 'the record is complete');
    },
  },
  {
    name: 'a repeat with the same key and request replays the answer and runs nothing',
    given: async (a) => {
      first_replies.set(a.id, await top_up(a, 'K-1', 'fingerprint-1', 10_00));
    },
    when: async (a) => {
      const reply = await top_up(a, 'K-1', 'fingerprint-1', 10_00);
      return { ...from_reply(reply), value: reply } as Result;
    },
    outcome: 'ok',
    unchanged: true,
    balances: { test: 10_00 },
    then: (t, a, result) => {
      const reply = (result as { value: Reply }).value;
      t.ok(replayed(reply), 'the answer says Idempotent-Replayed: true');
      t.equal(reply.body, first_replies.get(a.id)!.body, 'the body is the first answer\'s, byte for byte');
    },
  },
  {
    name: 'the same key with another request is refused as idempotency.key_reused',
    given: async (a) => {
      await top_up(a, 'K-1', 'fingerprint-1', 10_00);
    },
    when: async (a) => from_reply(await top_up(a, 'K-1', 'fingerprint-2', 20_00)),
    outcome: 'idempotency.key_reused',
    balances: { test: 10_00 },
  },
  {
    name: 'a repeat while the first is still in flight waits for it and replays it: one credit',
    when: async (a) => {
      const [, second] = await Promise.all([top_up(a, 'K-1', 'fingerprint-1', 10_00), top_up(a, 'K-1', 'fingerprint-1', 10_00)]);
      return { ...from_reply(second), value: second } as Result;
    },
    outcome: 'ok',
    balances: { test: 10_00 },
    events: ['wallet.credited'],
    then: (t, _a, result) => t.ok(replayed((result as { value: Reply }).value), 'the second answer is a replay'),
  },
  {
    name: 'a key past its 24 hours is new again: the command runs once more',
    given: async (a) => {
      await top_up(a, 'K-1', 'fingerprint-1', 10_00);
    },
    when: async (a) => from_reply(await top_up(a, 'K-1', 'fingerprint-1', 10_00, clock.now_ms() + idempotency_ttl_ms)),
    outcome: 'ok',
    balances: { test: 20_00 },
    events: ['wallet.credited'],
  },
  {
    name: 'a refusal under a key is remembered: its repeat replays the refusal',
    given: async (a) => {
      await top_up(a, 'K-1', 'fingerprint-1', 10_00);
      await top_up(a, 'K-2', 'fingerprint-3', -1);
    },
    when: async (a) => from_reply(await top_up(a, 'K-2', 'fingerprint-3', -1)),
    outcome: 'validation.failed',
    balances: { test: 10_00 },
    then: (t, a) => t.equal((store.idempotency.get([a.id, 'test', 'K-2']) as { status: number } | undefined)?.status, 400, 'the record holds the 400'),
  },
  {
    name: 'a 5xx answer under a key is not remembered, so the key may be tried again',
    when: async (a) => from_reply(await top_up(a, 'K-3', 'fingerprint-4', 0)),
    outcome: 'service.unavailable',
    then: (t, a) => t.equal(store.idempotency.get([a.id, 'test', 'K-3']), undefined, 'no record is stored'),
  },
]);

// ---- The runner can fail ------------------------------------------------------------------------

/** Records assertions instead of reporting them, so that a row with a wrong expectation can be run. */
class Recorder implements Checks {
  failed: string[] = [];
  private note(passed: boolean, message: string): boolean {
    if (!passed) this.failed.push(message);
    return passed;
  }
  equal(found: unknown, wanted: unknown, message: string): boolean {
    return this.note(found === wanted, message);
  }
  strictSame(found: unknown, wanted: unknown, message: string): boolean {
    return this.note(JSON.stringify(found) === JSON.stringify(wanted), message);
  }
  ok(found: unknown, message: string): boolean {
    return this.note(Boolean(found), message);
  }
  notOk(found: unknown, message: string): boolean {
    return this.note(!found, message);
  }
}

t.test('a row whose expectation is wrong fails', async (t) => {
  const wrong: [string, Row, string][] = [
    ['the outcome', { name: '', given: (a) => fund(a, 10_00), when: (a) => from_outcome(place(a, 10_01)), outcome: 'ok', balances: { test: 10_00 } }, 'the command\'s outcome is ok'],
    ['the balance', { name: '', given: (a) => fund(a, 10_00), when: (a) => from_outcome(place(a, 10_00)), outcome: 'ok', balances: { test: 1 }, events: ['wallet.debited'] }, 'the test balance is 1 kobo'],
    ['the events', { name: '', given: (a) => fund(a, 10_00), when: (a) => from_outcome(place(a, 10_00)), outcome: 'ok' }, 'the command emits no event'],
    ['a refusal that changes the account', { name: '', given: (a) => with_pin(a), when: (a) => verdict(a, false), outcome: 'pin_incorrect' }, 'the command staged nothing'],
    ['the read-back (a change made in memory only)', {
      name: '',
      when: (a) => {
        a.actor.account = { ...a.actor.account, tier: 'gold' };
        return { ok: true };
      },
      outcome: 'ok',
    }, 'the account read back from the store equals the one in memory'],
  ];
  for (const [what, row, message] of wrong) {
    const recorder = new Recorder();
    await run_row(recorder, row);
    t.ok(recorder.failed.includes(message), `a wrong expectation of ${what} fails the row with "${message}" (failed: ${recorder.failed.join('; ')})`);
  }
});

// ---- After a restart ----------------------------------------------------------------------------

t.test('every row\'s account reads back the same from its store opened again, as after a restart', async (t) => {
  const reopened = await world.reopen();
  const fresh = build_engine(reopened, clock, world.master_key);
  t.ok(final_states.size > 50, `the tables checked ${final_states.size} accounts`);
  const differing: number[] = [];
  for (const [id, state] of final_states) {
    const read = read_back(reopened, world.master_key, clock, id);
    if (JSON.stringify(read) !== JSON.stringify(state)) differing.push(id);
  }
  t.strictSame(differing, [], 'no account differs from what memory held');
  t.equal(fresh.account_count(), engine.account_count(), 'the restarted engine counts the accounts the first one made');
});
