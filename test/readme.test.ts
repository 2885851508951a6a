// README.md "A first purchase" works verbatim: a newcomer runs `npm start` on an empty store, pastes the two
// lines its banner prints (KEY=… and PIN=…), then runs the README's commands as written and gets answers shaped
// like the ones the README shows. This test does exactly that, with bash and curl, against a real server on a fresh
// store. The one rewrite of the README's commands: the server listens on a random port, so `localhost:8080` becomes
// `localhost:<port>`. The README's KEY=…/PIN=… block is the one a person fills from the banner, so it is replaced
// by the banner's own two lines, copied as printed.
import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repo_root, temp_dir, TestServer } from './helpers/server.js';
import { wait_for } from './helpers/fixtures-http.js';

const run_file = promisify(execFile);

interface Block {
  lang: string;
  text: string;
}

/** The fenced blocks of one `## ` section of a Markdown file, in order. */
function section_blocks(markdown: string, heading: string): Block[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1]!, text: match[2]! }));
}

/** What an answer looks like, without its values: keys, types, the first item of a list. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object') {
    return Object.fromEntries(Object.keys(value as object).sort().map((key) => [key, shape((value as Record<string, unknown>)[key])]));
  }
  return typeof value;
}

async function bash(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // A clean environment: KEY and PIN can only come from the pasted lines.
    const { stdout, stderr } = await run_file('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

t.test('the README\'s first purchase succeeds as written with the KEY and PIN lines npm start printed', async (t) => {
  const readme = readFileSync(join(repo_root, 'README.md'), 'utf8');
  const blocks = section_blocks(readme, 'A first purchase');
  const paste = blocks[0];
  t.equal(paste?.lang, 'sh', 'the section opens with the shell block a newcomer fills from the banner');
  if (paste === undefined) return;
  const pasted_names = paste.text.trim().split('\n').map((line) => /^([A-Z]+)=/.exec(line)?.[1]);
  t.same(pasted_names, ['KEY', 'PIN'], 'that block is the two assignments KEY=… and PIN=…, nothing else');

  const commands: { command: string; answer: unknown }[] = [];
  for (let i = 1; i < blocks.length; i++) {
    if (blocks[i]!.lang !== 'sh') continue;
    const answer = blocks[i + 1];
    t.equal(answer?.lang, 'json', `the command block ${commands.length + 1} is followed by the answer it gives`);
    commands.push({ command: blocks[i]!.text, answer: answer?.lang === 'json' ? JSON.parse(answer.text) : null });
  }
  t.ok(commands.length >= 2, 'the section has commands to run (the wallet and a purchase at least)');

  const data_dir = temp_dir();
  // DEMO unset: an empty store is seeded as `npm start` seeds it.
  const server = new TestServer(data_dir, { DEMO: '' });
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
  });
  await server.start();
  const banner = await wait_for(() => {
    const text = server.stderr.join('');
    return /^PIN=.*$/m.test(text) ? text : null;
  }, 5000, 'the demo banner');
  // As a person would: the two lines to paste, exactly as printed.
  const key_line = /^KEY=.*$/m.exec(banner)?.[0];
  const pin_line = /^PIN=.*$/m.exec(banner)?.[0];
  t.ok(key_line, 'the banner prints a KEY=… line');
  t.ok(pin_line, 'the banner prints a PIN=… line');
  if (key_line === undefined || pin_line === undefined) return;

  const outputs: string[] = [];
  for (const [n, { command, answer }] of commands.entries()) {
    t.match(command, /localhost:8080/, `command ${n + 1} talks to the address npm start serves`);
    const as_run = command.replaceAll('localhost:8080', `localhost:${server.port}`);
    const result = await bash(`${key_line}\n${pin_line}\n${as_run}`);
    t.equal(result.code, 0, `command ${n + 1} exits 0 (stderr: ${result.stderr})`);
    let body: unknown = null;
    try {
      body = JSON.parse(result.stdout);
    } catch {
      t.fail(`command ${n + 1} prints JSON: ${result.stdout}`);
      continue;
    }
    outputs.push(result.stdout);
    const got = body as { success?: unknown; message?: unknown; data?: { status?: unknown } };
    const shown = answer as typeof got;
    t.equal(got.success, true, `command ${n + 1} succeeds: ${result.stdout}`);
    t.same(shape(body), shape(answer), `command ${n + 1} answers with the shape the README shows`);
    t.equal(got.message, shown.message, `command ${n + 1} answers with the README's message`);
    t.equal(got.data?.status, shown.data?.status, `command ${n + 1} answers with the README's status`);
  }

  // "Send the same request again with the same X-Idempotency-Key and you get the same answer."
  const purchase = commands.findIndex(({ command }) => command.includes('X-Idempotency-Key'));
  t.ok(purchase >= 0, 'one of the commands is a purchase under an idempotency key');
  if (purchase >= 0 && outputs[purchase] !== undefined) {
    const again = await bash(`${key_line}\n${pin_line}\n${commands[purchase]!.command.replaceAll('localhost:8080', `localhost:${server.port}`)}`);
    t.equal(again.stdout, outputs[purchase], 'the same purchase again answers exactly the first answer: nothing is bought twice');
  }
});

t.test('no getting-started text tells a newcomer to use a fixed PIN', async (t) => {
  for (const file of ['README.md', 'docs/api.md', 'docs/operations.md', 'src/docs-site/index.html']) {
    const text = readFileSync(join(repo_root, file), 'utf8');
    t.notMatch(text, /PIN=\d{5}/, `${file} sets no PIN variable to a fixed number`);
    t.notMatch(text, /"pin":\s*"12345"[^\n]*localhost/, `${file} sends no fixed PIN in a command to this server`);
  }
});

t.test('the README\'s SDK example buys as written, with the package built as its section says', async (t) => {
  const readme = readFileSync(join(repo_root, 'README.md'), 'utf8');
  const blocks = section_blocks(readme, 'The TypeScript SDK');
  const script = blocks.find((block) => block.lang === 'js');
  t.ok(script, 'the section shows a script');
  if (script === undefined) return;
  t.match(script.text, /from '@billvend\/sdk'/, 'it imports the package by its name');

  // A project of a reader's: the package installed in its node_modules, laid out as `npm install <billvend>/sdk`
  // after `npm run build:sdk` lays it out (the package.json and the build beside it).
  const project = temp_dir('billvend-readme-sdk-');
  const data_dir = temp_dir();
  const server = new TestServer(data_dir, {});
  t.teardown(async () => {
    await server.kill();
    rmSync(data_dir, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });
  const installed = join(project, 'node_modules', '@billvend', 'sdk');
  mkdirSync(installed, { recursive: true });
  copyFileSync(join(repo_root, 'sdk', 'package.json'), join(installed, 'package.json'));
  const built = await run_file(process.execPath, [join(repo_root, 'sdk', 'scripts', 'build.mjs'), '--out', join(installed, 'dist')]).then(() => 0, () => 1);
  t.equal(built, 0, 'the package builds');
  await server.start();
  const account = await server.reseller(1000, {}, {});
  const file = join(project, 'first-purchase.mjs');
  writeFileSync(file, script.text.replaceAll('localhost:8080', `localhost:${server.port}`));
  const result = await run_file(process.execPath, [file], { cwd: project, env: { PATH: process.env.PATH ?? '', KEY: account.key, PIN: account.pin }, timeout: 20_000 }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  t.equal(result.code, 0, `the script exits 0 (stderr: ${result.stderr})`);
  const comment = /console\.log\(order\.reference, order\.status\); \/\/ (BV-\d{8}-)… (\w+)/.exec(script.text);
  t.ok(comment, 'the script says what it prints');
  t.match(result.stdout.trim(), new RegExp(`^BV-\\d{8}-[0-9A-Z]{12} ${comment?.[2]}$`), 'it prints the order\'s reference and the status the README shows');
});
