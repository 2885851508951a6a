// The recorded upstream answers the fakes speak (test/fixtures/upstreams/): one JSON file per documented
// answer, each copied from the page named in its `_source` (docs/upstreams.md). Fields starting with "_"
// (_source, _verbatim, _note) are the record's, never part of the answer: the fakes strip them.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const fixtures_dir = fileURLToPath(new URL('../fixtures/upstreams/', import.meta.url));

export type UpstreamKindDir = 'vtpass' | 'flutterwave';

const cache = new Map<string, Record<string, unknown>>();

/** The raw record of one fixture, with its source fields. */
export function fixture_record(kind: UpstreamKindDir, name: string): Record<string, unknown> {
  const key = `${kind}/${name}`;
  let record = cache.get(key);
  if (record === undefined) {
    record = JSON.parse(readFileSync(join(fixtures_dir, kind, `${name}.json`), 'utf8')) as Record<string, unknown>;
    cache.set(key, record);
  }
  return record;
}

/** The documented answer itself: a fresh copy without the record's own fields. */
export function fixture(kind: UpstreamKindDir, name: string): Record<string, any> {
  const copy = structuredClone(fixture_record(kind, name));
  for (const field of Object.keys(copy)) if (field.startsWith('_')) delete copy[field];
  return copy;
}

/** Every fixture's name, by upstream kind. */
export function fixture_names(kind: UpstreamKindDir): string[] {
  return readdirSync(join(fixtures_dir, kind)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}
