#!/usr/bin/env node
// `npm start` and `npm run serve` (docs/operations.md "Runtime"): serve without rebuilding when dist/ was built from
// the sources as they are. A build takes 15-20 s; this compares a fingerprint of every build input
// (path, size and modification time of each file under src/, the package and lock files, the tsconfig) with the one
// `npm run build` recorded, and builds only when they differ.
//
//   node scripts/build-if-stale.mjs            npm run build unless dist/ is current
//   node scripts/build-if-stale.mjs --check    exit 0 when dist/ is current, 1 when it is stale (builds nothing)
//   node scripts/build-if-stale.mjs --begin    (start of npm run build) note the inputs' fingerprint as they are now
//   node scripts/build-if-stale.mjs --stamp    (end of npm run build) record that fingerprint as built
//   --root DIR                                 another checkout than this script's
//
// The fingerprint is taken when the build begins, so a file edited while tsc runs leaves the build stale.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, begin: { type: 'boolean' }, stamp: { type: 'boolean' }, root: { type: 'string' } } });
const root = resolve(values.root ?? join(import.meta.dirname, '..'));
const stamp_path = join(root, 'dist', '.build-inputs');
const pending_path = join(root, 'dist', '.build-inputs.pending');
const root_inputs = ['package.json', 'package-lock.json', 'tsconfig.json'];

function files_under(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files_under(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function fingerprint() {
  const files = [...files_under(join(root, 'src')), ...root_inputs.map((name) => join(root, name)).filter((path) => existsSync(path))];
  const lines = files.map((path) => {
    const stat = statSync(path);
    return `${relative(root, path)}\t${stat.size}\t${stat.mtimeMs}`;
  }).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

function current() {
  if (!existsSync(join(root, 'dist', 'cli.js')) || !existsSync(stamp_path)) return false;
  return readFileSync(stamp_path, 'utf8').trim() === fingerprint();
}

if (values.begin) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(pending_path, fingerprint() + '\n');
} else if (values.stamp) {
  if (existsSync(pending_path)) renameSync(pending_path, stamp_path);
} else if (values.check) {
  process.exitCode = current() ? 0 : 1;
} else if (current()) {
  process.stderr.write('dist/ is current: serving without a build (npm run build to force one)\n');
} else {
  process.stderr.write('dist/ is older than the sources: building first\n');
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
