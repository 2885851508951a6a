// The error catalogue (docs/style.md "Errors"): every code in src/errors.ts is documented in the docs/api.md's
// error table with the same status, and every code of the spec's section 7 (docs/spec.md) and of
// docs/decisions.md "Errors we add" is in the catalogue. The lists below are read against those documents,
// so that neither a document nor a list can change without the other.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { error_catalogue } from '../src/errors.js';
import { repo_root } from './helpers/server.js';

/** docs/spec.md section 7 "Codes", as written there (checked against it below). */
const spec_codes: [string, number][] = [
  ['auth.invalid_key', 401],
  ['auth.key_not_found', 401],
  ['auth.key_expired', 401],
  ['auth.ip_not_allowed', 403],
  ['wallet.insufficient_funds', 422],
  ['wallet.not_found', 404],
  ['wallet.limit_exceeded', 422],
  ['transaction.failed', 422],
  ['transaction.not_found', 404],
  ['transaction.provider_unavailable', 503],
  ['service.plan_not_found', 422],
  ['service.invalid_meter', 422],
  ['service.invalid_smartcard', 422],
  ['service.amount_mismatch', 422],
  ['pin.incorrect', 403],
  ['pin.locked', 429],
  ['pin.not_set', 403],
  ['keys.limit_reached', 422],
  ['keys.not_found', 404],
  ['rate_limit.exceeded', 429],
];

/** docs/decisions.md "Errors we add" (checked against it below). */
const decided_codes: [string, number][] = [
  ['validation.failed', 400],
  ['request.malformed_json', 400],
  ['request.too_large', 413],
  ['request.unsupported_media_type', 415],
  ['route.not_found', 404],
  ['route.method_not_allowed', 405],
  ['auth.insufficient_scope', 403],
  ['idempotency.key_reused', 422],
  ['internal.error', 500],
];

const catalogue = error_catalogue as Record<string, { status: number; message: string }>;

function readme_error_table(): Map<string, number> {
  const readme = readFileSync(join(repo_root, 'docs', 'api.md'), 'utf8');
  const table = new Map<string, number>();
  for (const line of readme.split('\n')) {
    const row = /^\|\s*`([a-z_]+\.[a-z_]+)`\s*\|\s*(\d{3})\s*\|/.exec(line);
    if (row !== null) {
      if (table.has(row[1])) throw new Error(`docs/api.md lists ${row[1]} twice`);
      table.set(row[1], Number(row[2]));
    }
  }
  return table;
}

/** The rows of docs/spec.md's "### Codes" table: code and HTTP status, in the spec's order. */
function spec_codes_table(): [string, number][] {
  const spec = readFileSync(join(repo_root, 'docs', 'spec.md'), 'utf8');
  const section = spec.slice(spec.indexOf('### Codes'), spec.indexOf('## 8.'));
  const rows: [string, number][] = [];
  for (const line of section.split('\n')) {
    const row = /^\|\s*([a-z_]+\.[a-z_]+)\s*\|\s*(\d{3})\s*\|/.exec(line);
    if (row !== null) rows.push([row[1], Number(row[2])]);
  }
  return rows;
}

/** The codes and statuses named in docs/decisions.md "Errors we add", in the order written there. */
function decided_codes_text(): [string, number][] {
  const decisions = readFileSync(join(repo_root, 'docs', 'decisions.md'), 'utf8');
  const start = decisions.indexOf('## Errors we add');
  const section = decisions.slice(start, decisions.indexOf('\n## ', start + 1));
  return [...section.matchAll(/(\d{3})\s+`([a-z_]+\.[a-z_]+)`/g)].map((match): [string, number] => [match[2], Number(match[1])]);
}

t.test('every catalogue code is in the docs/api.md error table with the same HTTP status', async (t) => {
  const table = readme_error_table();
  t.ok(table.size >= spec_codes.length, `the docs/api.md table has ${table.size} codes`);
  for (const [code, entry] of Object.entries(catalogue)) {
    t.ok(table.has(code), `${code} is in the docs/api.md error table`);
    t.equal(table.get(code), entry.status, `${code} has status ${entry.status} in the docs/api.md`);
  }
  for (const code of table.keys()) t.ok(code in catalogue, `docs/api.md code ${code} is in the catalogue`);
});

t.test('every code of the spec\'s section 7 is in the catalogue with the spec\'s status', async (t) => {
  t.same(spec_codes, spec_codes_table(), 'the codes checked here are docs/spec.md\'s "Codes" table, each with its status');
  for (const [code, status] of spec_codes) {
    t.ok(code in catalogue, `${code} is in the catalogue`);
    t.equal(catalogue[code]?.status, status, `${code} has the spec's status ${status}`);
  }
});

t.test('every code docs/decisions.md adds is in the catalogue with its status', async (t) => {
  t.same(decided_codes, decided_codes_text(), 'the codes checked here are those docs/decisions.md "Errors we add" names, each with its status');
  for (const [code, status] of decided_codes) {
    t.ok(code in catalogue, `${code} is in the catalogue`);
    t.equal(catalogue[code]?.status, status, `${code} has status ${status}`);
  }
});

t.test('every catalogue entry is well formed', async (t) => {
  for (const [code, entry] of Object.entries(catalogue)) {
    t.match(code, /^[a-z_]+\.[a-z_]+$/, `${code} is a dotted lowercase code`);
    t.ok(entry.status >= 400 && entry.status <= 599, `${code} has an error status`);
    t.ok(entry.message.length > 0 && !entry.message.includes('undefined'), `${code} has a message`);
  }
});
