// The SDK's types are generated from the OpenAPI document the server serves (sdk/scripts/generate-types.mjs, npm
// run sdk:types), so committed types that no longer match it fail here; and the package builds with the
// repository's TypeScript into what its package.json promises.
import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { repo_root, start_server, temp_dir } from './helpers/server.js';

const run_file = promisify(execFile);
const generator = join(repo_root, 'sdk', 'scripts', 'generate-types.mjs');
const committed = join(repo_root, 'sdk', 'src', 'openapi.d.ts');

async function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run_file(process.execPath, args, { cwd: repo_root, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const server = await start_server(t, { env: { LOG_LEVEL: 'warn' } });
const scratch = temp_dir('billvend-sdk-');
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

t.test('the committed sdk/src/openapi.d.ts is what the server\'s OpenAPI document generates', async (t) => {
  t.match(readFileSync(committed, 'utf8'), /^\/\/ Generated from billvend's OpenAPI document[\s\S]{0,200}do not edit/, 'the file says it is generated and by what');
  const checked = await node([generator, '--check', '--from', server.base]);
  t.equal(checked.code, 0, `the types match the document (run npm run sdk:types): ${checked.stderr}`);
});

t.test('--check fails on types that do not match the document', async (t) => {
  const stale = join(scratch, 'openapi.d.ts');
  // As if a route had been added since: the committed types without one path.
  writeFileSync(stale, readFileSync(committed, 'utf8').replace(/\n    "\/v1\/events": \{[\s\S]*?\n    \};/, ''));
  t.not(readFileSync(stale, 'utf8'), readFileSync(committed, 'utf8'), 'the stale copy lacks a path');
  const checked = await node([generator, '--check', '--from', server.base, '--out', stale]);
  t.equal(checked.code, 1, 'the check exits 1');
  t.match(checked.stderr, /stale[^\n]*npm run sdk:types/, 'and says what to run');
});

t.test('the package builds with the repository\'s TypeScript into the files package.json exports', async (t) => {
  const manifest = JSON.parse(readFileSync(join(repo_root, 'sdk', 'package.json'), 'utf8'));
  t.equal(manifest.name, '@billvend/sdk', 'the package is @billvend/sdk');
  t.equal(manifest.type, 'module', 'an ES module package');
  t.equal(manifest.exports['.'].types, './dist/index.d.ts', 'its types are exported first');
  t.equal(manifest.exports['.'].import, './dist/index.js', 'its module is exported');
  t.same(manifest.files, ['dist', 'README.md'], 'it publishes the build and its README');
  t.notOk(manifest.dependencies, 'it has no runtime dependency: global fetch and WebCrypto');
  t.ok(existsSync(join(repo_root, 'sdk', 'README.md')), 'its README exists');
  const root = JSON.parse(readFileSync(join(repo_root, 'package.json'), 'utf8'));
  t.notOk(root.workspaces, 'the SDK is not an npm workspace: the root install stays as it is');

  // Laid out as the published package: its package.json (type module) beside the build.
  const package_dir = join(scratch, 'package');
  const out = join(package_dir, 'dist');
  mkdirSync(package_dir);
  copyFileSync(join(repo_root, 'sdk', 'package.json'), join(package_dir, 'package.json'));
  const built = await node([join(repo_root, 'sdk', 'scripts', 'build.mjs'), '--out', out]);
  t.equal(built.code, 0, `the build succeeds: ${built.stdout}${built.stderr}`);
  for (const file of ['index.js', 'index.d.ts', 'openapi.d.ts', 'client.d.ts']) t.ok(existsSync(join(out, file)), `the build has ${file}`);
  const sdk = await import(pathToFileURL(join(out, 'index.js')).href);
  t.same(Object.keys(sdk).sort(), ['Billvend', 'BillvendConnectionError', 'BillvendError', 'WebhookVerificationError', 'verifyWebhook'], 'the built module exports the client, its errors and the verifier');
});
