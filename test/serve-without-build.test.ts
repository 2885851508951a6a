// `npm run serve` (docs/operations.md "Runtime") serves without a build when dist/ was built from the sources as they
// are: scripts/build-if-stale.mjs compares a fingerprint of the build's inputs with the one `npm run build` recorded
// when it began. Checked on a small checkout of its own, so this test never rebuilds the repository's dist/.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repo_root, temp_dir } from './helpers/server.js';

const run_file = promisify(execFile);
const script = join(repo_root, 'scripts', 'build-if-stale.mjs');

async function step(root: string, flag: string): Promise<number> {
  try {
    await run_file(process.execPath, [script, flag, '--root', root]);
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

t.test('dist/ is current after a build and stale once a source, the lock file or the build output changes', async (t) => {
  const root = temp_dir('billvend-serve-');
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src', 'front'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(join(root, 'src', 'front', 'route.ts'), 'export {};\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');

  t.equal(await step(root, '--check'), 1, 'never built: stale');
  t.equal(await step(root, '--begin'), 0, 'a build begins');
  writeFileSync(join(root, 'dist', 'cli.js'), '');
  t.equal(await step(root, '--check'), 1, 'a build that has not finished is not current');
  t.equal(await step(root, '--stamp'), 0, 'the build ends');
  t.equal(await step(root, '--check'), 0, 'current: npm run serve would not build');

  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, 'src', 'front', 'route.ts'), later, later);
  t.equal(await step(root, '--check'), 1, 'a source touched since: stale');
  await step(root, '--begin');
  await step(root, '--stamp');
  t.equal(await step(root, '--check'), 0, 'built again: current');

  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
  t.equal(await step(root, '--check'), 1, 'new dependencies: stale');
  await step(root, '--begin');
  // A file edited while the build runs: the build began before it, so it stays stale.
  writeFileSync(join(root, 'src', 'main.ts'), 'export const edited = 1;\n');
  await step(root, '--stamp');
  t.equal(await step(root, '--check'), 1, 'a source edited during the build leaves it stale');
  await step(root, '--begin');
  await step(root, '--stamp');
  rmSync(join(root, 'dist', 'cli.js'));
  t.equal(await step(root, '--check'), 1, 'no dist/cli.js: stale');
});

t.test('npm start and npm run serve check before they serve; npm run build records what it built', async (t) => {
  const scripts = JSON.parse(readFileSync(join(repo_root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  t.equal(scripts.serve, 'node scripts/build-if-stale.mjs && node dist/cli.js serve', 'serve builds only when stale, then serves');
  t.equal(scripts.start, scripts.serve, 'and so does start: a fresh clone builds, a current build serves at once');
  t.match(scripts.build, /^node scripts\/build-if-stale\.mjs --begin && .* && node scripts\/build-if-stale\.mjs --stamp$/, 'build notes the inputs first and records them last');
});
