#!/usr/bin/env node
// Writes sdk/src/openapi.d.ts, the SDK's types, from the OpenAPI document billvend serves at GET /v1/openapi.json
// (src/front/openapi.ts builds it at start from the route table and the TypeBox schemas). `npm run sdk:types`
// builds the server, starts it on a temp store and random ports, reads the document and writes the types.
//
//   node sdk/scripts/generate-types.mjs                  start dist/cli.js serve, write sdk/src/openapi.d.ts
//   node sdk/scripts/generate-types.mjs --check          the same, but exit 1 when the file differs (stale)
//   --from http://127.0.0.1:8080                         read the document from a running server instead
//   --out FILE                                           another file than sdk/src/openapi.d.ts
//
// test/sdk-types.test.ts runs it with --check, so committed types that no longer match the document fail.
import openapiTS, { astToString } from 'openapi-typescript';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const repo_root = resolve(import.meta.dirname, '..', '..');
const start_timeout_ms = 30_000;

const header = `// Generated from billvend's OpenAPI document (GET /v1/openapi.json) by sdk/scripts/generate-types.mjs:
// do not edit. Run \`npm run sdk:types\` after changing a route or a schema; test/sdk-types.test.ts fails while
// this file is stale.
`;

/** The TypeScript declarations of one OpenAPI document, with this file's header. */
export async function types_of(document) {
  return header + astToString(await openapiTS(document));
}

/** Starts `node dist/cli.js serve` on a temp store and random ports; resolves with its base URL and a stop. */
async function start_server() {
  const cli = join(repo_root, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run npm run build first');
  const data_dir = mkdtempSync(join(tmpdir(), 'billvend-sdk-types-'));
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', DATA_DIR: data_dir, DEMO: '0', LOG_LEVEL: 'info', ADMIN_TOKEN: randomBytes(24).toString('base64url') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = [];
  child.stderr.on('data', (chunk) => stderr.push(String(chunk)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(data_dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the server did not start in ${start_timeout_ms} ms:\n${stderr.join('')}`)), start_timeout_ms);
      child.once('exit', (code) => fail(new Error(`the server exited with ${code}:\n${stderr.join('')}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.includes('"msg":"listening"')) return;
        clearTimeout(timer);
        done(JSON.parse(line).port);
      });
    });
    return { base: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' }, out: { type: 'string' }, check: { type: 'boolean', default: false } } });
  const out = resolve(values.out ?? join(repo_root, 'sdk', 'src', 'openapi.d.ts'));
  const server = values.from === undefined ? await start_server() : { base: values.from.replace(/\/$/, ''), stop: async () => {} };
  let document;
  try {
    const answer = await fetch(`${server.base}/v1/openapi.json`);
    if (answer.status !== 200) throw new Error(`GET /v1/openapi.json answered ${answer.status}`);
    document = await answer.json();
  } finally {
    await server.stop();
  }
  const types = await types_of(document);
  const name = relative(process.cwd(), out) || out;
  if (values.check) {
    const current = existsSync(out) ? readFileSync(out, 'utf8') : '';
    if (current !== types) {
      process.stderr.write(`${name} is stale: it does not match the OpenAPI document; run npm run sdk:types\n`);
      return 1;
    }
    process.stdout.write(`${name} matches the OpenAPI document\n`);
    return 0;
  }
  writeFileSync(out, types);
  process.stdout.write(`${name} written (${types.length} characters)\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`generate-types: ${error.message}\n`);
    process.exitCode = 2;
  },
);
