// What one command did, as data (docs/design.md "Engine"): the changes it made, the events it emitted, the
// balances it moved and the changes of process-wide state it asks for afterwards, kept while it runs and
// handed back with its outcome. Engine.run and
// Engine.run_across make one per command and hand it to the command's actors for the command's duration
// (AccountActor.enter_command); once the command has returned, Engine.run stages its changes and hands its
// events to the sink, in the order the command made them. Nothing of a running command reaches the
// journal or the event sink, and nothing outside the command is switched into a mode to collect it.
//
// A read inside the command sees the command's own changes first, the last one of a key deciding (a
// removal reads as absent), then the journal's read-your-writes (journal/journal.ts `read`), so a
// command reads what it wrote as it would once staged.
//
// A leaf: it imports only types (and the assertion), so the actor, the commands' functions and the
// engine can all name it (test/layers.test.ts).
import type { Database } from 'lmdb';
import type { AccountChange, Journal } from '../journal/journal.js';
import type { Key } from '../journal/store.js';
import type { Environment } from './records.js';
import type { EventKind, EventSubject } from './engine-events.js';
import { fail } from '../lib/assert.js';

/** What a command's effects need of the journal: to encode a put as it would stage it, and to read. */
export type EffectsJournal = Pick<Journal, 'encoded' | 'value_of' | 'read' | 'first_key_under'>;

/** An account of a command, as its effects know it. */
export interface EffectsActor {
  readonly id: number;
}

/**
 * An event a command emitted, with when it happened (the command's now) and how many of the command's
 * changes came before it. Actor: the actor's type as the code that reads the events knows it.
 */
export interface CommandEvent<Actor extends EffectsActor = EffectsActor> {
  /** Whose event: the command's account, or one of them for a command across accounts (Engine.run_across). */
  actor: Actor;
  environment: Environment;
  kind: EventKind;
  subject: EventSubject;
  now_us: number;
  /** The event goes to the sink after changes[0, after_changes) are staged: the order it was made in. */
  after_changes: number;
}

/** The kobo a command moved, per environment, on one account's wallets. */
export type BalanceMoves = Record<Environment, number>;

/** What a command gives back: its outcome, the changes to stage, the events to emit and the balances moved. */
export interface Executed<T, Actor extends EffectsActor = EffectsActor> {
  outcome: T;
  changes: AccountChange[];
  events: CommandEvent<Actor>[];
  /** The balances the command moved, per account, in kobo (the wallet totals of /metrics). */
  moved: Map<Actor, BalanceMoves>;
  /** What the process holds beside the accounts, to change once the changes are staged (CommandEffects.afterwards). */
  afterwards: (() => void)[];
}

/** Two keys the same, as the journal tells them apart: the string 1, the number 1 and the tuple [1] are three. */
function same_key(a: Key, b: Key): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class CommandEffects<Actor extends EffectsActor> {
  readonly changes: AccountChange[] = [];
  readonly events: CommandEvent<Actor>[] = [];
  readonly moved = new Map<Actor, BalanceMoves>();
  private readonly after_staged: (() => void)[] = [];
  /** Set once the command has returned (finish): its effects are handed back, and nothing joins them after. */
  private finished = false;

  /**
   * actors: the accounts the command holds, the only ones it may change or emit events of. now_us: the
   * command's now, the time of its events.
   */
  constructor(private readonly journal: EffectsJournal, readonly actors: readonly Actor[], readonly now_us: number) {}

  /** An actor entering the command (AccountActor.enter_command): one of its accounts, while it runs. */
  enter(actor: Actor): void {
    this.check_running();
    if (!this.actors.includes(actor)) fail(`account ${actor.id} entered a command over ${this.actors.map((a) => a.id).join(', ')}`);
  }

  /** A put of account_id's (0: the engine's counters), encoded now as the journal would stage it. */
  put(account_id: number, db: Database<any, any>, key: Key, value: unknown): void {
    this.check_running();
    this.changes.push({ account_id, change: this.journal.encoded(db, key, value) });
  }

  remove(account_id: number, db: Database<any, any>, key: Key): void {
    this.check_running();
    this.changes.push({ account_id, change: { db, key, encoded: undefined } });
  }

  /** An event of one of the command's accounts, at the command's now, after the changes made so far. */
  event(actor: Actor, environment: Environment, kind: EventKind, subject: EventSubject): void {
    this.check_running();
    if (!this.actors.includes(actor)) fail(`a command of account ${this.actors[0].id} emitted an event of account ${actor.id}, which it does not hold`);
    this.events.push({ actor, environment, kind, subject, now_us: this.now_us, after_changes: this.changes.length });
  }

  /** A wallet entry of the command moved a balance by delta_kobo (AccountActor.append_entry). */
  balance_moved(actor: Actor, environment: Environment, delta_kobo: number): void {
    this.check_running();
    if (!this.actors.includes(actor)) fail(`account ${actor.id}'s balance moved outside its command`);
    let moves = this.moved.get(actor);
    if (moves === undefined) this.moved.set(actor, (moves = { live: 0, test: 0 }));
    moves[environment] += delta_kobo;
  }

  /**
   * A change of what the process holds beside the accounts (the engine's key index, its counters, the PIN
   * cache), made by Engine.run once the command's changes are staged, in the order asked: a command that
   * throws halfway (a retired actor's staging) leaves none of it behind, and nothing outside the command
   * moves while it runs.
   */
  afterwards(change: () => void): void {
    this.check_running();
    this.after_staged.push(change);
  }

  /** An account of the command (an agent's order reaches its ancestors through it). */
  held(id: number): Actor {
    for (const actor of this.actors) if (actor.id === id) return actor;
    return fail(`account ${id} is not held by the running command`);
  }

  /** (db, key) as this command leaves it: its own last change of the key, else the journal's read. */
  read(db: Database<any, any>, key: Key): unknown {
    for (let i = this.changes.length - 1; i >= 0; i--) {
      const change = this.changes[i].change;
      if (change.db === db && same_key(change.key, key)) return this.journal.value_of(change);
    }
    return this.journal.read(db, key);
  }

  /**
   * The journal's first key under a tuple prefix. A command checks a range before it changes it (a client
   * reference's claim), so its own changes are not looked through: asking after changing the database fails.
   */
  first_key_under(db: Database<any, any>, prefix: readonly (string | number)[]): Key | undefined {
    for (const { change } of this.changes) if (change.db === db) fail('first_key_under of a database the running command has changed');
    return this.journal.first_key_under(db, prefix);
  }

  /** The command has returned outcome: its effects, for Engine.run to stage. A collector serves one command. */
  finish<T>(outcome: T): Executed<T, Actor> {
    this.check_running();
    this.finished = true;
    return { outcome, changes: this.changes, events: this.events, moved: this.moved, afterwards: this.after_staged };
  }

  private check_running(): void {
    if (this.finished) fail('the effects of a command that has returned were used again');
  }
}
