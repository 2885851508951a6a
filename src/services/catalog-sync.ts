// The catalog sync (docs/operations.md "Catalog sync", docs/upstreams.md "Catalog codes and sync"): what VTpass
// sells, read from GET {base}/api/service-variations?serviceID=… (headers api-key and public-key), for every
// service we sell from a list, at start, every catalog_sync_every_ms and on the operator's demand
// (POST /admin/catalog/sync, `billvend catalog sync`). Against it:
//   - a variation no item carries is added to its list, disabled, at VTpass's price, until the operator
//     prices and enables it;
//   - an item whose variation vanished, or whose VTpass price is above our selling price, is disabled:
//     never sold at a loss, never sent with a code VTpass no longer knows;
// each such change is reported: the log event `catalog.changed`, the operator's drift report
// (GET /admin/catalog/drift), the CLI and the metrics billvend_catalog_changes_total and
// billvend_catalog_drift_items. Everything is journaled (the items learned, the disabling, the drift), so a
// restart keeps it. A service whose list could not be read changes nothing: a failed call is never read
// as "everything vanished".
import type { Logger } from 'pino';
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import type { Clock } from '../lib/clock.js';
import type { TimerWheel } from '../lib/timer-wheel.js';
import type { UpstreamConfig } from '../config.js';
import { iso_us } from '../lib/time-format.js';
import { kobo_to_naira } from '../lib/money.js';
import type { Catalog, SyncedItem } from './catalog.js';
import { codes_of, item_of_vtpass, type SellableKind } from './upstream-codes.js';

/** Every VTpass service we sell from a list: its list and what narrows it (network, provider, group). */
export const vtpass_sync_services: readonly { service_id: string; kind: SellableKind; narrow: string }[] = [
  { service_id: 'mtn-data', kind: 'data-plans', narrow: 'mtn' },
  { service_id: 'airtel-data', kind: 'data-plans', narrow: 'airtel' },
  { service_id: 'glo-data', kind: 'data-plans', narrow: 'glo' },
  { service_id: 'etisalat-data', kind: 'data-plans', narrow: '9mobile' },
  { service_id: 'dstv', kind: 'tv-packages', narrow: 'dstv' },
  { service_id: 'gotv', kind: 'tv-packages', narrow: 'gotv' },
  { service_id: 'startimes', kind: 'tv-packages', narrow: 'startimes' },
  { service_id: 'waec', kind: 'education-products', narrow: 'waec' },
  { service_id: 'waec-registration', kind: 'education-products', narrow: 'waec' },
  { service_id: 'jamb', kind: 'education-products', narrow: 'jamb' },
  { service_id: 'smile-direct', kind: 'internet-plans', narrow: 'smile' },
  { service_id: 'spectranet', kind: 'internet-plans', narrow: 'spectranet' },
  { service_id: 'showmax', kind: 'showmax-plans', narrow: 'showmax' },
];

/** How often the catalog is synced (a duration of the spec: TIME_SCALE scales it). */
export const catalog_sync_every_ms = 6 * 60 * 60_000;
/** One service's list is read within this, or that service is left as it is until the next sync. */
export const variations_timeout_ms = 15_000;
/** Variations read from one answer; a longer list is refused whole (the service changes nothing). */
export const variations_per_service_max = 1_000;
/** Bytes read from one answer. */
export const variations_body_bytes_max = 1 << 20;
/** Changes kept for the drift report's `recent_changes`, newest first. */
export const recent_changes_max = 100;

export type DriftReason = 'new' | 'vanished' | 'price_above';

export interface UpstreamVariation {
  variation_code: string;
  name: string;
  /** variation_amount in kobo; null when VTpass gives none we can read (a variable-price variation). */
  amount_kobo: number | null;
}

/** One item out of step with VTpass, as the last sync of its service found it. */
export interface DriftEntry {
  kind: SellableKind;
  id: string;
  name: string;
  reason: DriftReason;
  service_id: string;
  variation_code: string;
  amount_kobo: number;
  upstream_amount_kobo: number | null;
}

/** A change the sync made: an item added (disabled) or disabled. */
export interface CatalogChange extends DriftEntry {
  at_us: number;
}

export interface ServiceSync {
  service_id: string;
  ok: boolean;
  variations: number;
  error?: string;
}

export interface SyncReport {
  upstream: string | null;
  at_us: number;
  trigger: string;
  services: ServiceSync[];
  changes: CatalogChange[];
}

const amount_text = /^(\d{1,12})(?:\.(\d{1,2})\d*)?$/;

/** "1850.00" or 1850 (NGN) in kobo, read from its decimal text; null when absent or unreadable. */
export function variation_amount_kobo(value: unknown): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? String(value) : typeof value === 'string' ? value.trim().replace(/,/g, '') : null;
  if (text === null) return null;
  const match = amount_text.exec(text);
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * The variations of one GET /api/service-variations answer: `response_description` "000" and
 * `content.variations`, or `content.varations` as many of VTpass's answers spell it. A string says why the
 * answer cannot be read.
 */
export function read_variations(body: unknown, service_id: string): UpstreamVariation[] | string {
  if (body === null || typeof body !== 'object') return 'unreadable answer';
  const answer = body as Record<string, any>;
  const code = String(answer.response_description ?? answer.code ?? '');
  if (code !== '000') return `answer ${code.slice(0, 40) || 'without a code'}`;
  const content = answer.content;
  if (content === null || typeof content !== 'object') return 'answer without content';
  if (content.serviceID !== undefined && content.serviceID !== service_id) return `answer for another service (${String(content.serviceID).slice(0, 40)})`;
  const list = Array.isArray(content.variations) ? content.variations : Array.isArray(content.varations) ? content.varations : null;
  if (list === null) return 'answer without variations';
  if (list.length > variations_per_service_max) return `more than ${variations_per_service_max} variations`;
  const out: UpstreamVariation[] = [];
  for (const raw of list) {
    const variation_code = typeof raw?.variation_code === 'string' || typeof raw?.variation_code === 'number' ? String(raw.variation_code).trim() : '';
    if (variation_code === '' || variation_code.length > 64) continue;
    out.push({ variation_code, name: String(raw.name ?? variation_code).slice(0, 120), amount_kobo: variation_amount_kobo(raw.variation_amount) });
  }
  return out;
}

/** Our id of a variation the sync adds: kept readable and within the API's 64 characters. */
export function synced_id(service_id: string, variation_code: string): string {
  return `vtpass-${service_id}-${variation_code}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 64);
}

function validity_of(name: string): string {
  const match = /(\d+\s*(?:hrs?|hours?|days?|weeks?|months?|years?))/i.exec(name);
  return match === null ? '' : match[1].toLowerCase();
}

/**
 * One service's variations against the catalog: adds what is new, disables what vanished or costs more
 * upstream than we sell it for. Returns the changes made and the drift found (changed or already so).
 */
export function apply_variations(catalog: Catalog, journal: Journal, service: (typeof vtpass_sync_services)[number], variations: readonly UpstreamVariation[], now_us: number): { changes: CatalogChange[]; drift: DriftEntry[] } {
  const changes: CatalogChange[] = [];
  const drift: DriftEntry[] = [];
  const seen = new Set<string>();
  for (const variation of variations) {
    const vtpass = { service_id: service.service_id, variation_code: variation.variation_code };
    const found = item_of_vtpass(service.service_id, variation.variation_code);
    if (found !== undefined) {
      seen.add(found.id);
      const item = catalog.sellable(found.kind, found.id);
      if (item === undefined) continue;
      const entry = { kind: found.kind, id: found.id, name: item.name, service_id: service.service_id, variation_code: variation.variation_code, amount_kobo: item.amount_kobo, upstream_amount_kobo: variation.amount_kobo };
      if (variation.amount_kobo !== null && variation.amount_kobo > item.amount_kobo) {
        drift.push({ ...entry, reason: 'price_above' });
        if (item.enabled) {
          catalog.disable(journal, found.kind, found.id);
          changes.push({ ...entry, reason: 'price_above', at_us: now_us });
        }
      } else if (!item.enabled && catalog.is_synced(found.kind, found.id)) {
        // Learned earlier and not yet priced and enabled by the operator.
        drift.push({ ...entry, reason: 'new' });
      }
      continue;
    }
    const id = synced_id(service.service_id, variation.variation_code);
    const amount_kobo = variation.amount_kobo ?? 0;
    const synced: SyncedItem = {
      kind: service.kind, id, name: variation.name, narrow: service.narrow, amount_kobo, vtpass, validity: validity_of(variation.name),
      ...(service.kind === 'education-products' ? { attributes: { service_id: service.service_id, variation_code: variation.variation_code, quantity_max: 1, requires_profile: service.service_id === 'jamb' } } : {}),
      ...(service.kind === 'internet-plans' || service.kind === 'showmax-plans' ? { attributes: { service_id: service.service_id, variation_code: variation.variation_code, validity: validity_of(variation.name) } } : {}),
    };
    if (!catalog.add_synced(journal, synced)) continue;
    seen.add(id);
    const entry: DriftEntry = { kind: service.kind, id, name: variation.name, reason: 'new', service_id: service.service_id, variation_code: variation.variation_code, amount_kobo, upstream_amount_kobo: variation.amount_kobo };
    drift.push(entry);
    changes.push({ ...entry, at_us: now_us });
  }
  // Items VTpass sold under this service that its list no longer names.
  for (const id of catalog.sellable_ids(service.kind)) {
    if (seen.has(id)) continue;
    const code = codes_of(service.kind, id)?.vtpass;
    if (code === undefined || code.service_id !== service.service_id) continue;
    const item = catalog.sellable(service.kind, id)!;
    const entry: DriftEntry = { kind: service.kind, id, name: item.name, reason: 'vanished', service_id: service.service_id, variation_code: code.variation_code, amount_kobo: item.amount_kobo, upstream_amount_kobo: null };
    drift.push(entry);
    if (item.enabled) {
      catalog.disable(journal, service.kind, id);
      changes.push({ ...entry, at_us: now_us });
    }
  }
  return { changes, drift };
}

/** What the sync tells the metrics. */
export interface CatalogSyncCounts {
  changes_total: Record<DriftReason, number>;
  drift_items: number;
  runs_failed_total: number;
}

/** The public part of a VTpass upstream the sync reads with. */
type SyncUpstream = Pick<UpstreamConfig, 'name' | 'base_url' | 'api_key' | 'public_key'>;

/** The first VTpass upstream with a public key: GET /api/service-variations takes api-key and public-key. */
export function sync_upstream_of(upstreams: readonly UpstreamConfig[]): SyncUpstream | null {
  return upstreams.find((u) => u.kind === 'vtpass' && u.public_key !== '' && u.api_key !== '') ?? null;
}

export class CatalogSync {
  private running: Promise<SyncReport> | null = null;
  private readonly drift_by_service = new Map<string, DriftEntry[]>();
  private last: Omit<SyncReport, 'changes'> | null = null;
  private recent: CatalogChange[] = [];
  readonly counts: CatalogSyncCounts = { changes_total: { new: 0, vanished: 0, price_above: 0 }, drift_items: 0, runs_failed_total: 0 };

  constructor(
    private readonly catalog: Catalog,
    private readonly journal: Journal,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly upstream: SyncUpstream | null,
  ) {
    // What earlier syncs found, so the report and the gauge survive a restart.
    for (const service of vtpass_sync_services) {
      const stored = store.catalog.get(`drift:${service.service_id}`) as { entries: DriftEntry[] } | undefined;
      if (stored !== undefined) this.drift_by_service.set(service.service_id, stored.entries);
    }
    this.last = (store.catalog.get('sync:last') as Omit<SyncReport, 'changes'> | undefined) ?? null;
    this.recent = (store.catalog.get('sync:recent') as CatalogChange[] | undefined) ?? [];
    this.count_drift();
  }

  /** At start, then every catalog_sync_every_ms on the timer wheel; nothing when no upstream can be read. */
  start(wheel: TimerWheel): void {
    if (this.upstream === null) return;
    const run = (trigger: string) => {
      this.run(trigger).catch((error: Error) => this.log.warn({ err: error }, 'catalog sync stopped'));
    };
    run('start');
    wheel.every(catalog_sync_every_ms, () => run('schedule'));
  }

  /** One sync at a time: a request during a sync waits for it and gets its report. */
  run(trigger: string): Promise<SyncReport> {
    if (this.running === null) {
      this.running = this.sync(trigger).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async sync(trigger: string): Promise<SyncReport> {
    const started_us = this.clock.now_us();
    const report: SyncReport = { upstream: this.upstream?.name ?? null, at_us: started_us, trigger, services: [], changes: [] };
    if (this.upstream === null) return report;
    for (const service of vtpass_sync_services) {
      const variations = await this.fetch_variations(this.upstream, service.service_id);
      if (typeof variations === 'string') {
        report.services.push({ service_id: service.service_id, ok: false, variations: 0, error: variations });
        continue;
      }
      const { changes, drift } = apply_variations(this.catalog, this.journal, service, variations, this.clock.now_us());
      report.services.push({ service_id: service.service_id, ok: true, variations: variations.length });
      report.changes.push(...changes);
      this.drift_by_service.set(service.service_id, drift);
      this.journal.put(0, this.store.catalog, `drift:${service.service_id}`, { at_us: started_us, entries: drift });
    }
    const failed = report.services.filter((s) => !s.ok);
    if (failed.length > 0) {
      this.counts.runs_failed_total++;
      this.log.warn({ upstream: this.upstream.name, failed: failed.map((s) => `${s.service_id}: ${s.error}`) }, 'catalog sync could not read some services; they are left as they were');
    }
    if (report.changes.length > 0) {
      for (const change of report.changes) this.counts.changes_total[change.reason]++;
      this.recent = [...report.changes].reverse().concat(this.recent).slice(0, recent_changes_max);
      this.journal.put(0, this.store.catalog, 'sync:recent', this.recent);
      // The operator-facing event: one log line naming every change (docs/operations.md "Catalog sync").
      this.log.warn({
        event: 'catalog.changed', upstream: this.upstream.name, trigger,
        changes: report.changes.slice(0, 50).map((c) => ({ kind: c.kind, id: c.id, reason: c.reason, service_id: c.service_id, variation_code: c.variation_code, amount: kobo_to_naira(c.amount_kobo), upstream_amount: c.upstream_amount_kobo === null ? null : kobo_to_naira(c.upstream_amount_kobo) })),
        count: report.changes.length,
      }, 'catalog changed by the upstream sync');
    }
    this.last = { upstream: report.upstream, at_us: report.at_us, trigger, services: report.services };
    this.journal.put(0, this.store.catalog, 'sync:last', this.last);
    this.count_drift();
    await this.journal.durable();
    return report;
  }

  private async fetch_variations(upstream: SyncUpstream, service_id: string): Promise<UpstreamVariation[] | string> {
    const url = `${upstream.base_url.replace(/\/+$/, '')}/api/service-variations?serviceID=${encodeURIComponent(service_id)}`;
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: { 'api-key': upstream.api_key, 'public-key': upstream.public_key, accept: 'application/json' },
        signal: AbortSignal.timeout(variations_timeout_ms),
      });
      const text = await response.text();
      if (text.length > variations_body_bytes_max) return 'answer too long';
      if (!response.ok) return `HTTP ${response.status}`;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return 'answer is not JSON';
      }
      return read_variations(body, service_id);
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
    }
  }

  private count_drift(): void {
    let total = 0;
    for (const entries of this.drift_by_service.values()) total += entries.length;
    this.counts.drift_items = total;
  }

  /** The operator's drift report (GET /admin/catalog/drift). */
  drift_report(): Record<string, unknown> {
    const items: Record<string, unknown>[] = [];
    for (const service of vtpass_sync_services) {
      for (const entry of this.drift_by_service.get(service.service_id) ?? []) items.push(drift_view(entry, this.catalog.sellable(entry.kind, entry.id)?.enabled ?? false));
    }
    return {
      upstream: this.upstream?.name ?? null,
      last_sync: this.last === null ? null : { at: iso_us(this.last.at_us), trigger: this.last.trigger, services: this.last.services },
      items,
      recent_changes: this.recent.map((c) => ({ ...drift_view(c, this.catalog.sellable(c.kind, c.id)?.enabled ?? false), at: iso_us(c.at_us) })),
    };
  }
}

/** A drift entry as the operator reads it: amounts in NGN. */
export function drift_view(entry: DriftEntry, enabled: boolean): Record<string, unknown> {
  return {
    kind: entry.kind, id: entry.id, name: entry.name, reason: entry.reason, service_id: entry.service_id, variation_code: entry.variation_code,
    amount: kobo_to_naira(entry.amount_kobo), upstream_amount: entry.upstream_amount_kobo === null ? null : kobo_to_naira(entry.upstream_amount_kobo), enabled,
  };
}

/** The answer of POST /admin/catalog/sync. */
export function sync_report_view(report: SyncReport, catalog: Catalog): Record<string, unknown> {
  return {
    upstream: report.upstream,
    at: iso_us(report.at_us),
    services: report.services,
    changes: report.changes.map((c) => drift_view(c, catalog.sellable(c.kind, c.id)?.enabled ?? false)),
  };
}
