// The recorded funding-provider answers the fakes speak (test/fixtures/funding/<kind>/): one JSON file per
// documented answer, each copied from the page named in its `_source` (docs/funding.md). Fields starting with
// "_" (_source, _verbatim, _note) are the record's, never part of the answer: the fakes strip them.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { FundingKind } from '../../src/services/funding/funding-provider.js';

export const funding_fixtures_dir = fileURLToPath(new URL('../fixtures/funding/', import.meta.url));

/** The raw record of one fixture, with its source fields. */
export function funding_fixture_record(kind: FundingKind, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(funding_fixtures_dir, kind, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

/** The documented answer itself: a fresh copy without the record's own fields. */
export function funding_fixture(kind: FundingKind, name: string): Record<string, any> {
  const copy = funding_fixture_record(kind, name);
  for (const field of Object.keys(copy)) if (field.startsWith('_')) delete copy[field];
  return copy;
}

/** Every fixture's name of a kind. */
export function funding_fixture_names(kind: FundingKind): string[] {
  return readdirSync(join(funding_fixtures_dir, kind)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}
