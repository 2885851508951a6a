// The sum of every wallet's balance, per environment, for /metrics (docs/operations.md "Metrics",
// docs/decisions.md "The first ten minutes"). Kept as a running total: each command that moves a
// balance hands its delta over with the promise of the batch that holds it (Engine.run), and the delta
// joins the total when that batch is durable. The starting point is a scan of the store's wallets made
// after start, a slice of wallet_scan_slice_max wallets per turn of the event loop, so that neither
// start-up nor the other tenants' requests wait for it (reading a million accounts at once took 1.2 s).
//
// Until the scan is complete the total is not known and is not reported. While it runs, each wallet is
// counted exactly once: a delta is counted only if the scan has already read its wallet (its key is at
// or before the scan's cursor) or its account was created after the scan began (ids from end_account
// on, born at zero); any other delta is in the value the scan reads later, because the scan reads each
// wallet as staged (Journal.read: the newest staged change, else the store). Both the scan and every
// command run on the event loop, so "before" and "after" the cursor are never ambiguous.
//
// A failed commit (the disk guard refused a batch) drops the deltas of the batches it refused, and the
// accounts they touched are reloaded from the store; the scan may have read some of those wallets as
// staged, so the total starts over: a new scan (restart), the old batches' deltas ignored (generation).
import type { Database } from 'lmdb';
import type { Journal } from '../journal/journal.js';
import type { Environment, WalletRecord } from './records.js';
import { fail } from '../lib/assert.js';

/**
 * Wallets read per turn of the event loop (two per account). Measured on the shared 2-core machine:
 * about 1 µs a wallet decoded from the store, so a slice holds the loop 1-3 ms (docs/operations.md
 * "Nothing long on the event loop").
 */
export const wallet_scan_slice_max = 2_000;
/**
 * A slice also ends once it has run this long (checked every 64 wallets): the first slices of 2,000, run
 * before the JIT has warmed up and beside start-up's own work, took 18-31 ms; with this bound 9-11 ms.
 */
export const wallet_scan_slice_ms = 4;

/** Where the scan stands, for the log and the tests. */
export interface WalletScanFigures {
  wallets: number;
  slices: number;
  /** From start() to the last slice, in ms (turns between slices included). */
  duration_ms: number;
  /** The longest single slice, in ms: the longest the scan held the event loop. */
  longest_slice_ms: number;
}

/** The deltas of one batch, applied when it is durable. */
interface BatchDeltas {
  done: Promise<void>;
  generation: number;
  live: number;
  test: number;
}

export class WalletTotals {
  private readonly kobo = { live: 0, test: 0 };
  private state: 'idle' | 'scanning' | 'complete' = 'idle';
  /** Bumped at each (re)start: slices and batches of an earlier scan no longer count. */
  private generation = 0;
  /** Accounts from this id on were created after the scan began: their wallets start at zero. */
  private end_account = 0;
  /** The last wallet the scan read (ordered-binary order: by account id, then 'live' before 'test'). */
  private cursor: [number, Environment] | null = null;
  /** The batch deltas are being added to; a new batch's promise starts a new one. */
  private open: BatchDeltas | null = null;
  private started_ms = 0;
  /** Wallets per slice: wallet_scan_slice_max unless a test asks for smaller slices. */
  private slice_max = wallet_scan_slice_max;
  readonly figures: WalletScanFigures = { wallets: 0, slices: 0, duration_ms: 0, longest_slice_ms: 0 };

  constructor(
    private readonly wallets: Database<any, any>,
    private readonly journal: Journal,
    private readonly on_complete: (figures: WalletScanFigures) => void = () => {},
  ) {}

  /** True once start() was called: a failed commit starts the scan again only then. */
  get started(): boolean {
    return this.state !== 'idle';
  }

  /** True once the scan has read every wallet: from then on the totals are exact. */
  get complete(): boolean {
    return this.state === 'complete';
  }

  /** Every wallet's balance summed, in kobo, or null while the scan runs (or never ran). */
  total_kobo(environment: Environment): number | null {
    return this.state === 'complete' ? this.kobo[environment] : null;
  }

  /**
   * Begins (or begins again) the scan. next_account: the id the next account created will get. Every
   * account below it must be in the store, none of it only staged: true after recovery and after a
   * failed commit (which refuses everything staged). slice_max: wallets per turn (tests make it small).
   */
  start(next_account: number, slice_max: number = this.slice_max): void {
    if (!Number.isSafeInteger(slice_max) || slice_max < 1) fail('wallet scan slice must be a positive integer');
    this.slice_max = slice_max;
    this.generation += 1;
    this.kobo.live = 0;
    this.kobo.test = 0;
    this.state = 'scanning';
    this.end_account = next_account;
    this.cursor = null;
    this.open = null;
    this.started_ms = performance.now();
    Object.assign(this.figures, { wallets: 0, slices: 0, duration_ms: 0, longest_slice_ms: 0 });
    const generation = this.generation;
    setImmediate(() => this.slice(generation));
  }

  /**
   * A command moved balances of one account (live and test deltas, in kobo); done: the promise of the
   * batch holding its changes (Journal.durable right after they were staged).
   */
  moved(account_id: number, live_kobo: number, test_kobo: number, done: Promise<void>): void {
    if (this.state === 'idle') return;
    const live = live_kobo !== 0 && this.counts(account_id, 'live') ? live_kobo : 0;
    const test = test_kobo !== 0 && this.counts(account_id, 'test') ? test_kobo : 0;
    if (live === 0 && test === 0) return;
    let open = this.open;
    if (open === null || open.done !== done || open.generation !== this.generation) {
      const batch: BatchDeltas = { done, generation: this.generation, live: 0, test: 0 };
      this.open = open = batch;
      // One callback per batch, not per command. A refused batch adds nothing: the engine reloads the
      // accounts it touched and the scan starts over (restart, from Engine's journal failure).
      done.then(() => this.apply(batch), () => {});
    }
    open.live += live;
    open.test += test;
  }

  private apply(batch: BatchDeltas): void {
    if (batch.generation !== this.generation) return;
    this.kobo.live += batch.live;
    this.kobo.test += batch.test;
    if (!Number.isSafeInteger(this.kobo.live) || !Number.isSafeInteger(this.kobo.test)) fail('wallet totals left the safe integers');
  }

  /** Whether a delta of this wallet is counted now rather than read by the scan later. */
  private counts(account_id: number, environment: Environment): boolean {
    if (this.state === 'complete' || account_id >= this.end_account) return true;
    const cursor = this.cursor;
    if (cursor === null) return false;
    return account_id < cursor[0] || (account_id === cursor[0] && (environment === cursor[1] || environment === 'live'));
  }

  private slice(generation: number): void {
    if (generation !== this.generation) return;
    const began = performance.now();
    // Wallets staged and not yet durable are read as staged; when none is, the range's values are.
    const staged = this.journal.holds_staged(this.wallets);
    const after = this.cursor;
    let read = 0;
    let ended = true;
    // One more than a slice, to tell whether anything is left after it.
    const range = after === null ? { limit: this.slice_max + 1 } : { start: after, exclusiveStart: true, limit: this.slice_max + 1 };
    for (const { key, value } of this.wallets.getRange(range)) {
      const [account_id, environment] = key as [number, Environment];
      if (account_id >= this.end_account) break;
      // A slice ends at slice_max wallets, or sooner once it has held the loop wallet_scan_slice_ms
      // (the first slices run before the JIT has warmed up, and beside start-up's other work).
      if (read === this.slice_max || (read % 64 === 0 && read > 0 && performance.now() - began >= wallet_scan_slice_ms)) {
        ended = false;
        break;
      }
      const wallet = (staged ? this.journal.read(this.wallets, key) : value) as WalletRecord | undefined;
      if (wallet !== undefined) this.kobo[environment] += wallet.balance_kobo;
      this.cursor = [account_id, environment];
      read += 1;
    }
    const took_ms = performance.now() - began;
    this.figures.wallets += read;
    this.figures.slices += 1;
    this.figures.longest_slice_ms = Math.max(this.figures.longest_slice_ms, took_ms);
    this.figures.duration_ms = performance.now() - this.started_ms;
    if (!ended) {
      setImmediate(() => this.slice(generation));
      return;
    }
    this.state = 'complete';
    this.on_complete(this.figures);
  }
}
