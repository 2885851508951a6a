// The events feed (docs/api.md "Events feed"): every event of an account and environment, whether or
// not an endpoint subscribes, stored in the order it happened and kept 30 days, so that a reseller whose
// receiver was down catches up with GET /v1/events?after=<the last id it saw>.
//
// The store's event_feed holds [account, environment, seq] → the events of one command, from that seq on:
// seq grows by one per event of an account and environment, so the feed after an event is one forward
// range read. The event id carries its seq (evt_ + 8 base62 characters of seq + 16 random ones), so
// `after` is found with one read and no index of ids (an index keyed by random ids would write to a
// random page per event). The events one command emits for one account and environment (a purchase's
// wallet.debited and transaction.completed) are one record, an array, under the first one's seq: one key
// a purchase instead of two (every key a purchase writes costs the store's thread, docs/design.md
// "Coalesced views and one record per purchase"). A record written before 2026-11-29 is one event, not an
// array: read as a record of one.
import type { AccountActor } from '../engine/account-actor.js';
import type { Engine, EventKind, StageEventRecords } from '../engine/engine.js';
import type { Environment } from '../engine/records.js';
import { random_base62 } from '../lib/ids.js';
import type { RandomSource } from '../lib/random.js';
import { assert_feed_event, type FeedEvent } from './records.js';

/** A record of the feed: the events of one command from its key's seq on (an array), or one event (before 2026-11-29). */
type FeedRecord = FeedEvent | FeedEvent[];

function events_of(record: FeedRecord): FeedEvent[] {
  const events = Array.isArray(record) ? record : [record];
  for (const event of events) assert_feed_event(event);
  return events;
}

/** The events of one account and environment appended in the open journal group: staged as one record at its end. */
interface OpenRecord {
  first_seq: number;
  events: FeedEvent[];
  stage: StageEventRecords;
}

/** How long the feed keeps an event. */
export const feed_retention_ms = 30 * 24 * 60 * 60 * 1000;
/** Events examined at most for one page of a feed filtered by type; the page says where it stopped. */
export const feed_scanned_max = 10_000;
/** Events removed at most per sweep of the feed (docs/style.md: every batch has a bound). */
export const feed_sweep_removals_max = 5_000;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const seq_chars = 8;
const seq_max = 62 ** seq_chars - 1;
const event_id_pattern = /^evt_[0-9A-Za-z]{24}$/;

/** evt_ and 24 base62 characters (docs/decisions.md "Names"): the first 8 the feed position, 16 random. */
export function feed_event_id(random: RandomSource, seq: number): string {
  let text = '';
  for (let value = seq, i = 0; i < seq_chars; i++) {
    text = base62[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return 'evt_' + text + random_base62(random, 24 - seq_chars);
}

/** The feed position an event id names, or null when it is not one of ours. */
export function feed_seq_of(id: string): number | null {
  if (!event_id_pattern.test(id)) return null;
  let seq = 0;
  for (let i = 4; i < 4 + seq_chars; i++) seq = seq * 62 + base62.indexOf(id[i]);
  return seq;
}

export interface FeedPage {
  events: FeedEvent[];
  has_more: boolean;
  /** The id to pass as `after` next: the last event examined (returned or skipped by type), or null. */
  next_after: string | null;
}

export class EventFeed {
  /**
   * The last seq given out per account and environment ("7/test"): at most two per account. Only a
   * leader emits; a deposed cluster leader exits and comes back as a standby, so a node never holds
   * positions older than the store's (docs/cluster.md).
   */
  private readonly last_seq = new Map<string, number>();
  /** The records being gathered in the open journal group, by "account/environment"; staged as it ends. */
  private readonly open = new Map<string, OpenRecord>();

  constructor(private readonly engine: Engine) {}

  /**
   * Stages an event in the feed in the group of the command that causes it (stage). Its seq is the next of its
   * account and environment (read from the store the first time, then kept here). The events of one account and
   * environment in one journal group (one command's) are staged together as the group ends: one put.
   */
  append(actor: AccountActor, environment: Environment, kind: EventKind, created_us: number, stage: StageEventRecords, make_body: (id: string) => string): string {
    const name = `${actor.id}/${environment}`;
    let seq = this.last_seq.get(name);
    if (seq === undefined) seq = this.stored_last_seq(actor.id, environment);
    seq += 1;
    if (seq > seq_max) seq = 1; // 218 trillion events of one account: never, but ids must stay 24 characters
    this.last_seq.set(name, seq);
    const id = feed_event_id(this.engine.random, seq);
    const event: FeedEvent = { id, kind, created_us, body: make_body(id) };
    assert_feed_event(event);
    const open = this.open.get(name);
    // The next seq of the record gathered in this group (a wrap of seq starts a record of its own).
    if (open !== undefined && open.first_seq + open.events.length === seq) {
      open.events.push(event);
      return id;
    }
    const record: OpenRecord = { first_seq: seq, events: [event], stage };
    const db = this.engine.store.event_feed;
    const staged = this.engine.journal.at_group_end(() => {
      this.open.delete(name);
      record.stage([{ db, key: [actor.id, environment, record.first_seq], value: record.events }]);
    });
    if (staged) this.open.set(name, record);
    else stage([{ db, key: [actor.id, environment, seq], value: [event] }]);
    return id;
  }

  private stored_last_seq(account_id: number, environment: Environment): number {
    for (const { key, value } of this.engine.store.event_feed.getRange({ start: [account_id, environment, seq_max + 1], end: [account_id, environment, 0], reverse: true, limit: 1 })) {
      return (key as [number, string, number])[2] + events_of(value as FeedRecord).length - 1;
    }
    return 0;
  }

  /** The record holding the event at seq: its first seq and events, or null. */
  private record_holding(account_id: number, environment: Environment, seq: number): { first_seq: number; events: FeedEvent[] } | null {
    // The last record at or before seq (the range's start is inclusive).
    for (const { key, value } of this.engine.store.event_feed.getRange({ start: [account_id, environment, seq], end: [account_id, environment, 0], reverse: true, limit: 1 })) {
      return { first_seq: (key as [number, string, number])[2], events: events_of(value as FeedRecord) };
    }
    return null;
  }

  /**
   * The events after `after_seq` (exclusive), oldest first, at most limit of them, of one kind when
   * kind is set; events older than the retention are not shown even before the sweep removes them.
   * Null when after names no event of this account and environment within the retention.
   */
  read(account_id: number, environment: Environment, after: string | null, kind: EventKind | null, limit: number, now_us: number): FeedPage | null {
    const db = this.engine.store.event_feed;
    const oldest_us = now_us - this.engine.clock.scaled(feed_retention_ms) * 1000;
    let after_seq = 0;
    let start_seq = 1;
    if (after !== null) {
      const seq = feed_seq_of(after);
      const record = seq === null ? null : this.record_holding(account_id, environment, seq);
      const found = seq === null || record === null ? undefined : record.events[seq - record.first_seq];
      if (seq === null || found === undefined || found.id !== after || found.created_us < oldest_us) return null;
      after_seq = seq;
      start_seq = record!.first_seq;
    }
    const events: FeedEvent[] = [];
    let scanned = 0;
    let has_more = false;
    let last_examined: string | null = after;
    const feed = function* (): Generator<FeedEvent> {
      for (const { key, value } of db.getRange({ start: [account_id, environment, start_seq], end: [account_id, environment, seq_max + 1] })) {
        const first_seq = (key as [number, string, number])[2];
        const record = events_of(value as FeedRecord);
        for (let i = 0; i < record.length; i++) if (first_seq + i > after_seq) yield record[i];
      }
    };
    for (const event of feed()) {
      if (event.created_us < oldest_us) continue;
      if (kind !== null && event.kind !== kind) {
        if (++scanned >= feed_scanned_max) {
          // Nothing more is examined in this call: the next one starts after this skipped event.
          has_more = true;
          last_examined = event.id;
          break;
        }
        continue;
      }
      if (events.length === limit) {
        has_more = true;
        break;
      }
      events.push(event);
      last_examined = event.id;
      scanned++;
    }
    return { events, has_more, next_after: last_examined };
  }

  /**
   * Removes events older than the retention, at most feed_sweep_removals_max per call: for each
   * account and environment the oldest events come first, so a sweep removes from the start of each
   * one's range and moves on at its first event young enough to keep.
   */
  sweep(now_us: number): number {
    const db = this.engine.store.event_feed;
    const oldest_us = now_us - this.engine.clock.scaled(feed_retention_ms) * 1000;
    let removed = 0;
    // From the first account's key on: the database also holds msgpack's shared structures under a key
    // of its own, which is no event.
    let start: (string | number)[] = [0];
    for (;;) {
      let next: (string | number)[] | undefined;
      for (const { key, value } of db.getRange({ start, limit: feed_sweep_removals_max - removed + 1 })) {
        if (!Array.isArray(key)) continue;
        const [account_id, environment, seq] = key as [number, string, number];
        // A record's events are one command's: the last is the youngest.
        if ((events_of(value as FeedRecord).at(-1)!).created_us < oldest_us) {
          if (removed === feed_sweep_removals_max) return removed;
          this.engine.journal.remove(account_id, db, key as (string | number)[]);
          removed++;
          continue;
        }
        next = [account_id, environment, seq_max + 1];
        break;
      }
      if (next === undefined) return removed;
      start = next;
    }
  }
}
