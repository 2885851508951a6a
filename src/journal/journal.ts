// The journal: every state change of the engine is staged here and written to LMDB in group commits,
// one LMDB transaction for all the changes staged during an event-loop turn, however many requests
// and accounts they come from. A reply leaves only once the commit holding its changes is flushed to
// disk (`durable()`), so nothing acknowledged is lost on kill -9 or power loss.
//
// Batching by event-loop turn: uWS delivers every request that arrived in one poll phase before
// setImmediate callbacks run, so one commit covers all of them (see bench/ purchase scenarios).
//
// Read-your-writes: `read` (and `first_key_under` for a tuple range) answers with what is staged in
// the open batch and in the batches sealed but not yet durable, newest first, and falls back to the
// store; a staged removal answers "absent". Every check that must hold before a commit is durable
// (an email, a funding reference, a client reference or a random order reference taken once) reads
// through here, so no caller keeps its own copy of what it staged.
import { asBinary, type Database } from 'lmdb';
import type { Key } from './store.js';
import type { FreeSpace } from './disk-guard.js';
import { fail } from '../lib/assert.js';

/** A batch refused before it reached LMDB because the disk has no room for it. */
export class StoreFullError extends Error {
  constructor() {
    super('the store\'s disk is nearly full: writes are refused until space is freed');
  }
}

/** One staged change: what a batch holds and what the cluster layer replicates. */
export interface StagedChange {
  db: Database<any, any>;
  key: Key;
  /** The value encoded when it was staged; undefined removes the key. */
  encoded: Buffer | undefined;
}
type Change = StagedChange;

/**
 * A change and the account it belongs to (0 for the engine's counters): what a command hands back
 * (engine/command-effects.ts) and Engine.run stages, in its order, with stage_changes. A failed commit
 * reloads the accounts its changes named.
 */
export interface AccountChange {
  account_id: number;
  change: StagedChange;
}

/**
 * Cluster mode's hook (src/cluster/ supplies it; the journal knows nothing of NATS). Called once per
 * batch, in commit order. The batch goes to LMDB only once `appended` is done (the stream took it), with
 * `changes` in the same transaction (the stream position the store then stands at), and counts as durable
 * once that transaction is flushed. A refused append writes nothing: the local store never holds a batch
 * the stream did not take (docs/cluster.md "A deposed leader's local tail"). Once an append fails, every
 * later one must fail too: a batch never counts as replicated after one before it did not.
 */
export interface JournalAppender {
  append(changes: readonly StagedChange[]): { changes: StagedChange[]; appended: Promise<void> };
}

/** An lmdb-js write's promise: resolves when committed; `flushed` when on disk. */
export type StoreWrite = Promise<boolean> & { flushed?: Promise<void> };

/** lmdb-js databases expose their msgpackr encoder (with the db's shared structures). */
interface Encodable {
  encoder: { encode(value: unknown): Uint8Array };
}

interface Batch {
  changes: Change[];
  /**
   * The batch's last change of each key, per database: what `read` answers from (read-your-writes).
   * Built on the first read of that database in this batch and kept up to date after: a database
   * never read costs one map lookup per change.
   */
  latest: Map<Database<any, any>, Map<string, Change>>;
  /**
   * Tuple keys of one database by their parent (the key without its last element), built on the
   * first `first_key_under` of that database in this batch and kept up to date after: a database
   * never read by range costs nothing.
   */
  children: Map<Database<any, any>, Map<string, Map<string, Change>>>;
  /** Encoded bytes staged: the disk guard's estimate of what the commit will write. */
  bytes: number;
  /**
   * For the databases whose keys are written again and again (Journal.coalesce): the index in `changes` of
   * each key's last change, and the indexes of the changes a later one of the same key made moot, which
   * the batch drops when it is sealed.
   */
  last_index: Map<Database<any, any>, Map<string, number>> | null;
  superseded: number[] | null;
  touched_accounts: Set<number>;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface JournalObserver {
  on_commit(changes: number, duration_ms: number): void;
}

export class JournalFailure extends Error {
  constructor(readonly cause_error: unknown, readonly touched_accounts: Set<number>) {
    super(`journal commit failed: ${(cause_error as Error)?.message ?? cause_error}`);
  }
}

function ignore(): void {}

/** lmdb-js databases decode with the same msgpackr instance they encode with (shared structures included). */
function decode(db: Database<any, any>, encoded: Buffer): unknown {
  return (db as unknown as { decoder: { decode(bytes: Buffer): unknown } }).decoder.decode(encoded);
}

/** Marks a write's promises as handled: the journal reports failures through `fail`, once. */
function quiet(written: Promise<unknown> & { flushed?: Promise<unknown> }): void {
  written.catch(ignore);
  written.flushed?.catch(ignore);
}

/**
 * Writes changes into LMDB as one transaction: all writes issued in one synchronous run land in one
 * LMDB transaction (lmdb-js README, "db.transaction"). The leader's journal and a standby applying
 * the replicated stream both write through here: one path. Returns the last write's promise; throws
 * when lmdb-js refuses a write outright.
 */
export function write_changes(changes: readonly StagedChange[]): StoreWrite {
  let last: StoreWrite = Promise.resolve(true);
  try {
    for (const change of changes) {
      const written: StoreWrite = change.encoded === undefined ? change.db.remove(change.key) : change.db.put(change.key, asBinary(change.encoded));
      // Writes of one transaction usually share one promise (lmdb-js starts a new one every 1,000
      // writes); every other one must not reject unheard when the commit fails.
      if (written !== last) quiet(last);
      last = written;
    }
  } catch (error) {
    quiet(last);
    throw error;
  }
  return last;
}

function new_batch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A failed batch is reported through on_failure; waiters that also await `done` handle it themselves.
  done.catch(() => {});
  return { changes: [], latest: new Map(), children: new Map(), bytes: 0, last_index: null, superseded: null, touched_accounts: new Set(), done, resolve, reject };
}

/**
 * A key as a map key. The first character tells the kinds apart (a JSON array starts with '['), so
 * the string 1, the number 1 and the tuple [1] are three keys, as they are to LMDB's ordered-binary.
 */
function key_text(key: Key): string {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number') return `n${key}`;
  return JSON.stringify(key);
}

/** The order of two last elements of tuple keys, as ordered-binary sorts them: numbers before strings. */
function compare_parts(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A batch's last change of each key of one database, indexed on first use (see Batch.latest). */
function latest_of(batch: Batch, db: Database<any, any>): Map<string, Change> {
  let latest = batch.latest.get(db);
  if (latest === undefined) {
    batch.latest.set(db, (latest = new Map()));
    for (const change of batch.changes) if (change.db === db) latest.set(key_text(change.key), change);
  }
  return latest;
}

function index_child(parents: Map<string, Map<string, Change>>, change: Change): void {
  if (!Array.isArray(change.key) || change.key.length === 0) return;
  const parent = JSON.stringify(change.key.slice(0, -1));
  let children = parents.get(parent);
  if (children === undefined) parents.set(parent, (children = new Map()));
  children.set(key_text(change.key), change);
}

export class Journal {
  /** A batch is closed when it reaches this many changes, bounding commit size. */
  static readonly batch_changes_max = 20_000;
  /**
   * Full batches waiting behind the one committing. The open batch grows while a commit runs, so a
   * batch only waits when it filled up; beyond this bound (1.2 million changes) writes are refused.
   */
  static readonly batches_waiting_max = 64;

  private batch: Batch = new_batch();
  private readonly waiting: Batch[] = [];
  /**
   * Sealed batches not yet durable nor refused, oldest first: the waiting ones and those committing
   * or flushing. `read` looks through them (after the open batch); each leaves when it settles, so
   * what is held is bounded by batches_waiting_max and the commits in flight.
   */
  private readonly unsettled: Batch[] = [];
  private scheduled = false;
  private committing = false;
  private last_durable: Promise<void> = Promise.resolve();
  /** Cluster mode: replicates each batch (see JournalAppender); null on a single node. */
  appender: JournalAppender | null = null;
  /** Set once an append failed: this node was deposed, and no later batch is written or acknowledged. */
  private refused: JournalFailure | null = null;
  /** Open groups (begin_group): while any is open, the batch is never sealed, so a group never spans two commits. */
  private group_depth = 0;
  /** What runs as the outermost open group ends, still inside it (at_group_end). */
  private group_end: (() => void)[] = [];
  /** The databases whose keys a batch writes once, with their last value (see coalesce). */
  private readonly coalesced = new Set<Database<any, any>>();

  constructor(
    private readonly observer: JournalObserver,
    private readonly on_failure: (failure: JournalFailure) => void,
    private readonly on_fatal: (error: unknown) => void,
    private readonly space: FreeSpace = { room_for: () => true },
    /**
     * Called once, at the first refused batch: from then on the accounts in memory hold changes the
     * cluster never took (staged, then refused), so nothing may act on them (Engine.fence).
     */
    private readonly on_refused: (failure: JournalFailure) => void = () => {},
  ) {}

  /**
   * A batch writes each key of these databases once, with the last value staged: a wallet written by every
   * purchase of its account, an id counter by every event. A batch is one LMDB transaction (and, in cluster
   * mode, one stream message applied in one transaction), so no reader of the store or of the stream ever
   * saw the values in between: writing only the last leaves the same store after the commit, with fewer
   * B-tree writes (docs/design.md "Coalesced views and one record per purchase": the store's cost follows
   * the keys written). Only for databases whose keys repeat: finding a repeat costs a key's text per change.
   */
  coalesce(...dbs: Database<any, any>[]): void {
    for (const db of dbs) this.coalesced.add(db);
  }

  get overloaded(): boolean {
    return this.waiting.length >= Journal.batches_waiting_max;
  }

  /**
   * Stages a put. The value is encoded now, not when the batch is written: the caller may go on
   * mutating its object (an actor's wallet record is), and a batch must hold the state as of the
   * command that staged it, or a crash between two commits could pair a newer wallet with older
   * entries (regression: test/crash-durability.test.ts found exactly that).
   */
  put(account_id: number, db: Database<any, any>, key: Key, value: unknown): void {
    this.stage(account_id, this.encoded(db, key, value));
  }

  remove(account_id: number, db: Database<any, any>, key: Key): void {
    this.stage(account_id, { db, key, encoded: undefined });
  }

  /**
   * A put as the journal stages it, encoded now (see put), not staged: a running command keeps its changes
   * itself (engine/command-effects.ts) and Engine.run stages them once it has returned (stage_changes).
   */
  encoded(db: Database<any, any>, key: Key, value: unknown): StagedChange {
    if (value === undefined) fail('journal put of undefined');
    // msgpackr returns a slice of its working buffer and moves on past it (pack.js: `packr.offset =
    // position`); when the buffer fills it starts a new one rather than rewinding, so the slice stays
    // valid until the batch is written and no copy is needed.
    return { db, key, encoded: (db as unknown as Encodable).encoder.encode(value) as Buffer };
  }

  /** The value a change stages, decoded anew (a read of it, as `read` answers); undefined for a removal. */
  value_of(change: StagedChange): unknown {
    return change.encoded === undefined ? undefined : decode(change.db, change.encoded);
  }

  /** Stages changes[from, to) of a command (Engine.run), in their order, as put and remove would have. */
  stage_changes(changes: readonly AccountChange[], from = 0, to = changes.length): void {
    for (let i = from; i < to; i++) this.stage(changes[i].account_id, changes[i].change);
  }

  /**
   * Everything staged until the matching end_group lands in one batch, so in one LMDB transaction (and,
   * in cluster mode, one stream append): a command's changes, over however many accounts, and the
   * records of the events it emitted are committed together or not at all (Engine.run, Engine.run_across).
   * Only batch_changes_max can seal a batch in the middle of a synchronous run (the end of a turn and a
   * commit's completion come on later turns); inside a group it waits for end_group, so a batch may pass
   * the bound by one command's changes. Groups nest (an event outside a command, Engine.emit, opens its own inside a bulk batch's completion).
   */
  begin_group(): void {
    this.group_depth++;
  }

  /**
   * Runs `then` as the outermost open group ends, before its changes can be sealed: what it stages joins the
   * group's commit (the events feed stages a command's events as one record so). False, and nothing kept, when no
   * group is open.
   */
  at_group_end(then: () => void): boolean {
    if (this.group_depth === 0) return false;
    this.group_end.push(then);
    return true;
  }

  end_group(): void {
    if (this.group_depth === 0) fail('end_group without begin_group');
    let failure: { error: unknown } | null = null;
    if (this.group_depth === 1 && this.group_end.length > 0) {
      const ends = this.group_end;
      this.group_end = [];
      // Each runs, whatever another does; the group ends either way, and the first failure is thrown after.
      for (const then of ends) {
        try {
          then();
        } catch (error) {
          failure ??= { error };
        }
      }
    }
    this.group_depth--;
    if (this.group_depth === 0 && this.batch.changes.length >= Journal.batch_changes_max) this.seal();
    if (failure !== null) throw failure.error;
  }

  private stage(account_id: number, change: Change): void {
    const batch = this.batch;
    if (this.coalesced.has(change.db)) {
      batch.last_index ??= new Map();
      let last = batch.last_index.get(change.db);
      if (last === undefined) batch.last_index.set(change.db, (last = new Map()));
      const text = key_text(change.key);
      const before = last.get(text);
      if (before !== undefined) (batch.superseded ??= []).push(before);
      last.set(text, batch.changes.length);
    }
    batch.changes.push(change);
    const latest = batch.latest.get(change.db);
    if (latest !== undefined) {
      latest.set(key_text(change.key), change);
      const parents = batch.children.get(change.db);
      if (parents !== undefined) index_child(parents, change);
    }
    batch.bytes += (change.encoded?.length ?? 0) + 64;
    if (account_id > 0) batch.touched_accounts.add(account_id);
    if (batch.changes.length >= Journal.batch_changes_max && this.group_depth === 0) {
      this.seal();
    } else if (!this.scheduled && !this.committing) {
      // Group commit: close the batch at the end of this event-loop turn. While a commit is running
      // the batch stays open and keeps growing; the commit's completion closes it (see pump).
      this.scheduled = true;
      setImmediate(() => this.kick());
    }
  }

  private kick(): void {
    this.scheduled = false;
    if (this.committing) return;
    this.seal();
  }

  /**
   * The value of (db, key) once everything staged so far is durable: the newest staged change of the
   * key in a batch not yet durable, else the store's. A staged removal answers undefined. The value is
   * decoded from the bytes staged, so it is the state as of the command that staged it, never an
   * object its caller went on mutating; each read returns a new object.
   */
  read(db: Database<any, any>, key: Key): unknown {
    const change = this.staged(db, key_text(key));
    if (change === null) return db.get(key);
    return this.value_of(change);
  }

  /**
   * Whether a batch not yet durable (or the open one) holds a change of this database: a reader of
   * many keys (the wallet totals' scan) reads through `read` only then, the store's range otherwise.
   */
  holds_staged(db: Database<any, any>): boolean {
    if (latest_of(this.batch, db).size > 0) return true;
    for (const batch of this.unsettled) if (latest_of(batch, db).size > 0) return true;
    return false;
  }

  /** The newest staged change of a key, or null when no batch not yet durable holds one. */
  private staged(db: Database<any, any>, text: string): Change | null {
    const found = latest_of(this.batch, db).get(text);
    if (found !== undefined) return found;
    for (let i = this.unsettled.length - 1; i >= 0; i--) {
      const change = latest_of(this.unsettled[i], db).get(text);
      if (change !== undefined) return change;
    }
    return null;
  }

  /**
   * The first key directly under a tuple prefix (the prefix and one element more) once everything
   * staged is durable: staged puts count, keys the store holds count unless a staged removal took
   * them away. Costs one store range read that skips at most the staged removals under the prefix.
   */
  first_key_under(db: Database<any, any>, prefix: readonly (string | number)[]): Key | undefined {
    const parent = JSON.stringify(prefix);
    /** Staged keys under the prefix, the newest change of each deciding. */
    const staged = new Map<string, Change>();
    for (const batch of [this.batch, ...[...this.unsettled].reverse()]) {
      const latest = latest_of(batch, db);
      if (latest.size === 0) continue;
      let parents = batch.children.get(db);
      if (parents === undefined) {
        batch.children.set(db, (parents = new Map()));
        for (const change of latest.values()) index_child(parents, change);
      }
      for (const [text, change] of parents.get(parent) ?? []) if (!staged.has(text)) staged.set(text, change);
    }
    let first: Key | undefined;
    for (const change of staged.values()) {
      if (change.encoded === undefined) continue;
      const key = change.key as (string | number)[];
      if (first === undefined || compare_parts(key[prefix.length], (first as (string | number)[])[prefix.length]) < 0) first = key;
    }
    // The store's first key directly under the prefix and not removed by a staged change. The range
    // ends at the highest code point: ordered-binary sorts strings as UTF-8, after every number.
    for (const stored of db.getKeys({ start: [...prefix], end: [...prefix, '\u{10FFFF}'] })) {
      const key = stored as (string | number)[];
      if (!Array.isArray(key) || key.length !== prefix.length + 1) continue;
      const change = staged.get(key_text(key));
      if (change !== undefined && change.encoded === undefined) continue;
      if (first === undefined || compare_parts(key[prefix.length], (first as (string | number)[])[prefix.length]) < 0) first = key;
      break;
    }
    return first;
  }

  /**
   * Makes sure the next `changes` staged in this event-loop turn go into one commit: the open batch is
   * closed first when they might not fit in it (bulk orders, whose items must be placed all or none).
   */
  ensure_room(changes: number): void {
    if (changes > Journal.batch_changes_max) fail(`${changes} changes cannot share one commit`);
    // Inside a group nothing seals: what follows shares the group's commit anyway.
    if (this.group_depth === 0 && this.batch.changes.length + changes > Journal.batch_changes_max) this.seal();
  }

  /**
   * A promise that resolves when everything staged so far is durable on disk. Batches are committed
   * and flushed in order, so the promise of the open batch also covers every earlier one.
   */
  durable(): Promise<void> {
    return this.batch.changes.length > 0 ? this.batch.done : this.last_durable;
  }

  /** Closes the open batch and queues it for commit. */
  private seal(): void {
    this.scheduled = false;
    const batch = this.batch;
    if (batch.changes.length === 0) return;
    this.batch = new_batch();
    if (batch.superseded !== null) {
      // Each key of a coalesced database keeps its last change only; `latest` and `children` hold last changes already.
      const moot = new Uint8Array(batch.changes.length);
      for (const index of batch.superseded) moot[index] = 1;
      batch.changes = batch.changes.filter((_, index) => moot[index] === 0);
    }
    this.last_durable = batch.done;
    this.waiting.push(batch);
    this.unsettled.push(batch);
    this.pump();
  }

  /**
   * Commits waiting batches one at a time. The next batch goes to LMDB only once the previous one has
   * committed (not flushed: with overlappingSync its flush overlaps the next commit), so a commit that
   * fails never has later batches that built on its lost changes already written behind it. In cluster
   * mode a batch is appended to the stream first and written once the stream took it (JournalAppender);
   * the next batch waits for that too, and grows meanwhile.
   */
  private pump(): void {
    if (this.committing) return;
    const batch = this.waiting.shift();
    if (batch === undefined) return;
    if (this.refused !== null) {
      this.settle(batch);
      batch.reject(this.refused);
      this.pump();
      return;
    }
    if (!this.space.room_for(batch.bytes)) {
      // Refused before LMDB sees it: nothing was written, so the engine can reload what it lost.
      this.fail(batch, new StoreFullError());
      return;
    }
    this.committing = true;
    const started = performance.now();
    if (this.appender === null) {
      this.write(batch, batch.changes, started);
      return;
    }
    let append: ReturnType<JournalAppender['append']>;
    try {
      append = this.appender.append(batch.changes);
    } catch (error) {
      this.on_fatal(error);
      return;
    }
    append.appended.then(
      () => this.write(batch, append.changes.length === 0 ? batch.changes : [...batch.changes, ...append.changes], started),
      (error) => {
        this.committing = false;
        this.refuse(batch, error);
      },
    );
  }

  /** Writes a batch as one LMDB transaction; it is durable once flushed (see pump). */
  private write(batch: Batch, changes: readonly Change[], started: number): void {
    let last: StoreWrite;
    try {
      last = write_changes(changes);
    } catch (error) {
      // lmdb-js refused a write outright: its environment cannot be trusted any more.
      this.on_fatal(error);
      return;
    }
    last.then(
      () => {
        const flushed = last.flushed;
        if (flushed === undefined) fail('lmdb write promise has no flushed promise (separateFlushed)');
        // Flushes complete in commit order; chaining on the previous one makes that explicit.
        const on_disk = Promise.all([flushed, this.previous_flush]).then(() => {});
        // A commit that cannot be flushed (fsync failed) leaves the disk in an unknown state: crash,
        // and let recovery start from what LMDB knows is on disk.
        on_disk.catch((error) => this.on_fatal(error));
        this.previous_flush = on_disk;
        on_disk.then(
          () => {
            this.observer.on_commit(batch.changes.length, performance.now() - started);
            // Durable: the store answers for its keys from now on.
            this.settle(batch);
            batch.resolve();
          },
          (error) => this.refuse(batch, error),
        );
        this.committing = false;
        // Whatever was staged during this commit goes next, as one batch.
        if (this.waiting.length > 0) this.pump();
        else this.seal();
      },
      (error) => {
        // A commit LMDB failed to write (disk full despite the guard, I/O error): lmdb-js does not
        // survive it (its native heap corrupts after ENOSPC), so the process ends at once and
        // recovery starts from the last commit on disk, which LMDB keeps intact.
        quiet(last);
        (error as { commitError?: Promise<unknown> })?.commitError?.catch?.(ignore);
        this.on_fatal(error);
      },
    );
  }

  /**
   * A batch could not be replicated (cluster mode: this node lost its lease or its stream): it and
   * every batch after it are refused, and no later batch is written. The node is leaving (the
   * cluster layer restarts it as a standby), so accounts are not reloaded.
   */
  private refuse(batch: Batch, error: unknown): void {
    const first = this.refused === null;
    this.refused ??= new JournalFailure(error, new Set());
    // Before the batches' waiters hear of it: a delivery no longer awaiting its commit must not be
    // sent from what the accounts hold in memory (docs/cluster.md "A deposed leader's local tail").
    if (first) this.on_refused(this.refused);
    const refused = [batch, ...this.waiting.splice(0)];
    if (this.batch.changes.length > 0) {
      refused.push(this.batch);
      this.batch = new_batch();
      this.scheduled = false;
    }
    this.last_durable = Promise.reject(this.refused);
    this.last_durable.catch(ignore);
    for (const each of refused) this.settle(each);
    for (const each of refused) each.reject(this.refused);
  }

  private previous_flush: Promise<void> = Promise.resolve();

  /** A batch durable or refused: `read` no longer looks in it. */
  private settle(batch: Batch): void {
    const at = this.unsettled.indexOf(batch);
    if (at >= 0) this.unsettled.splice(at, 1);
  }

  /**
   * A batch was refused before it reached LMDB (the disk is nearly full): nothing of it is on disk.
   * Every batch staged after it may depend on its changes, so they are refused too; the engine then
   * reloads the touched accounts from the store, which holds exactly what was committed before.
   */
  private fail(batch: Batch, error: unknown): void {
    const failure = new JournalFailure(error, new Set(batch.touched_accounts));
    const refused = [batch, ...this.waiting.splice(0)];
    if (this.batch.changes.length > 0) {
      refused.push(this.batch);
      this.batch = new_batch();
      this.scheduled = false;
    }
    for (const each of refused) {
      for (const id of each.touched_accounts) failure.touched_accounts.add(id);
    }
    this.last_durable = this.previous_flush;
    // Nothing of these batches reached the disk: reads answer from the store again before the
    // engine reloads what they touched.
    for (const each of refused) this.settle(each);
    this.on_failure(failure);
    for (const each of refused) each.reject(failure);
  }

  /** Commits what is staged now and resolves once everything is durable (shutdown). */
  async drain(): Promise<void> {
    this.seal();
    await this.last_durable.catch(() => {});
  }
}
