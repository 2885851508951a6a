// The recorded answers the fake funding providers speak (test/fixtures/funding/<kind>/): one JSON file per
// documented answer, each naming the page it is copied from in `_source` (docs/funding.md). Fields starting
// with "_" (_source, _verbatim, _note) are the record's, never part of the answer: fixture() strips them.
// The same shape as test/helpers/upstream-fixtures.ts, for the funding providers.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { FundingKind } from '../../src/services/funding/funding-provider.js';

export const funding_fixtures_dir = fileURLToPath(new URL('../fixtures/funding/', import.meta.url));

const cache = new Map<string, Record<string, unknown>>();

/** The raw record of one fixture, with its source fields. */
export function funding_fixture_record(kind: FundingKind, name: string): Record<string, unknown> {
  const key = `${kind}/${name}`;
  let record = cache.get(key);
  if (record === undefined) {
    record = JSON.parse(readFileSync(join(funding_fixtures_dir, kind, `${name}.json`), 'utf8')) as Record<string, unknown>;
    cache.set(key, record);
  }
  return record;
}

/** The documented answer itself: a fresh copy without the record's own fields. */
export function funding_fixture(kind: FundingKind, name: string): Record<string, any> {
  const copy = structuredClone(funding_fixture_record(kind, name));
  for (const field of Object.keys(copy)) if (field.startsWith('_')) delete copy[field];
  return copy;
}

/** Every fixture's name, for a kind. */
export function funding_fixture_names(kind: FundingKind): string[] {
  return readdirSync(join(funding_fixtures_dir, kind)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}
