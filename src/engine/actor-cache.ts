// The account actors held in memory (docs/operations.md "Actors in memory"). An actor is built from
// the store the first time a request needs it and let go when memory is short and it is idle, so that
// memory grows with the accounts in use, not with every account ever created (docs/benchmarks.md
// "Scale": holding all of them took 2.2 GiB of JS heap for a million accounts).
//
// One account never has two live actors: an actor let go while some work still holds it (a PIN check
// or a webhook attempt awaiting across the event loop) stays reachable through a WeakRef, and the next
// lookup takes that same object back rather than building a second one from the store, whose copy
// could be older than the object's staged changes. Only once nothing holds it does the garbage
// collector take it, and then the store holds everything it knew.
import { actors_resident_max_default } from '../config.js';

export { actors_resident_max_default };
/** Resident actors looked at per admission when looking for ones to let go: bounds the work of one lookup. */
const eviction_scan_max = 64;

/**
 * What the cache reads and marks on an actor (engine/account-actor.ts): declared here, so the cache holds
 * actors without importing their module, which imports the engine that holds this cache.
 */
export interface CachedActor {
  readonly id: number;
  readonly retired: boolean;
  /** Held by the cache; false once let go. */
  resident: boolean;
  /** Used since the cache last looked at it: its second chance before being let go. */
  recent: boolean;
}

export interface ActorSource<Actor extends CachedActor> {
  /** Builds the actor of an account from the store, or undefined when the store has no such account. */
  load(id: number): Actor | undefined;
  /** Whether the actor holds nothing that only memory knows (see Engine.evictable). */
  evictable(actor: Actor, now_ms: number): boolean;
  now_ms(): number;
  /** The actor became resident, or stopped being so (its keys join or leave the in-memory key lookup). */
  admitted(actor: Actor): void;
  released(actor: Actor): void;
}

export class ActorCache<Actor extends CachedActor> {
  /** Resident actors in admission order; a second-chance flag (CachedActor.recent) stands for use. */
  private readonly resident = new Map<number, Actor>();
  /** Actors let go that may still be held by work in flight, until the garbage collector takes them. */
  private readonly released = new Map<number, WeakRef<Actor>>();
  private readonly collected = new FinalizationRegistry<number>((id) => {
    if (this.released.get(id)?.deref() === undefined) this.released.delete(id);
  });
  /** Actors built from the store since start, and actors let go (metrics). */
  loads = 0;
  evictions = 0;

  constructor(
    private readonly source: ActorSource<Actor>,
    /** The bound on resident actors; actors that must stay (see evictable) may hold it exceeded. */
    public resident_max: number = actors_resident_max_default,
  ) {}

  /** The account's actor, built from the store when it is not in memory; undefined for no such account. */
  get(id: number): Actor | undefined {
    const actor = this.resident.get(id);
    if (actor !== undefined) {
      actor.recent = true;
      return actor;
    }
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const held = this.take_back(id);
    if (held !== undefined) return held;
    const loaded = this.source.load(id);
    if (loaded === undefined) return undefined;
    this.loads++;
    this.admit(loaded);
    return loaded;
  }

  /** The actor if it is in memory (resident or still held), without building it from the store. */
  peek(id: number): Actor | undefined {
    return this.resident.get(id) ?? this.released.get(id)?.deref();
  }

  has_resident(id: number): boolean {
    return this.resident.has(id);
  }

  /** Resident actors: every actor with open orders or unsaved changes is among them. */
  values(): IterableIterator<Actor> {
    return this.resident.values();
  }

  /** Resident actors (billvend_actors_in_memory). */
  get size(): number {
    return this.resident.size;
  }

  /** Holds an actor in memory: a new account's, or one let go that staged a change again. */
  admit(actor: Actor): void {
    this.released.delete(actor.id);
    this.resident.set(actor.id, actor);
    if (!actor.resident) this.source.admitted(actor);
    actor.resident = true;
    actor.recent = true;
    if (this.resident.size > this.resident_max) this.evict_some(actor);
  }

  /** Forgets an actor entirely (replaced after a failed commit). */
  forget(id: number): void {
    const actor = this.resident.get(id);
    if (actor !== undefined) actor.resident = false;
    this.resident.delete(id);
    this.released.delete(id);
  }

  /**
   * Lets go of idle actors, oldest admitted first, until the bound holds or eviction_scan_max were
   * looked at. A recently used actor gets a second chance (moved to the back), as does one that must
   * stay; so the cost of one admission is bounded, and the bound is restored over a few admissions.
   */
  private evict_some(admitted: Actor): void {
    const now_ms = this.source.now_ms();
    let scanned = 0;
    for (const [id, actor] of this.resident) {
      if (this.resident.size <= this.resident_max || scanned >= eviction_scan_max) return;
      scanned++;
      this.resident.delete(id);
      // The actor being admitted is about to be used (its caller holds it; a request has not yet
      // opened its rate window): never let it go in its own admission.
      if (actor === admitted || actor.recent || !this.source.evictable(actor, now_ms)) {
        actor.recent = false;
        this.resident.set(id, actor);
        continue;
      }
      actor.resident = false;
      this.source.released(actor);
      this.released.set(id, new WeakRef(actor));
      this.collected.register(actor, id);
      this.evictions++;
    }
  }

  private take_back(id: number): Actor | undefined {
    const ref = this.released.get(id);
    if (ref === undefined) return undefined;
    const actor = ref.deref();
    this.released.delete(id);
    if (actor === undefined || actor.retired) return undefined;
    this.admit(actor);
    return actor;
  }
}
