// Layers point one way (ARCHITECTURE.md "Layers"): lib ← journal ← engine ← services / webhooks ← front /
// dashboard / operator ← main. A module may import from its own layer or a lower one, never from a
// higher one, whether the import is of a value or only of a type: a type that a lower layer needs from a
// higher one is a sign the type lives in the wrong place. And no circle of imports ties modules together
// anywhere in src/, type-only imports included (issue 31): a type two modules both need lives in the module
// that owns it, below both, so that each file can be read knowing only what it imports.
//
// The browser code (src/dashboard/app, src/docs-site) is built separately and imports nothing from the
// server, which this test also checks.
import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { repo_root } from './helpers/server.js';

const src = join(repo_root, 'src');

/** Layer of each top-level part of src/, lowest first. */
const layer_of_part: Record<string, number> = {
  lib: 0, 'errors.ts': 0, 'log.ts': 0, 'config.ts': 0,
  journal: 1,
  engine: 2, cluster: 2,
  services: 3, webhooks: 3, schemas: 3,
  front: 4, dashboard: 4, operator: 4,
  'main.ts': 5, 'cli.ts': 5, server: 5,
};

const browser_parts = ['dashboard/app', 'docs-site'];

/**
 * Imports still pointing up, each with why it is not fixed yet. The test fails on any other, and on an
 * entry here that no longer exists (so the list only shrinks).
 */
const known_upward = new Map<string, string>([]);
const edge_name = (edge: Import) => `${name(edge.from)} -> ${name(edge.to)}`;

interface Import {
  from: string;
  to: string;
  type_only: boolean;
}

function files_under(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files_under(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const import_pattern = /^\s*(import|export)\s+(type\s+)?[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gms;

function imports_of(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const match of text.matchAll(import_pattern)) {
    const target = match[3] ?? match[4];
    const to = normalize(join(dirname(file), target)).replace(/\.js$/, '.ts');
    out.push({ from: file, to, type_only: match[2] !== undefined });
  }
  return out;
}

const name = (file: string) => relative(src, file);

function layer(file: string): number {
  const part = name(file).split('/')[0];
  const level = layer_of_part[part];
  if (level === undefined) throw new Error(`src/${part} has no layer: add it to layer_of_part in test/layers.test.ts`);
  return level;
}

const is_browser = (file: string) => browser_parts.some((part) => name(file).startsWith(`${part}/`));
const all_files = files_under(src);
const server_files = all_files.filter((file) => !is_browser(file));
const imports = server_files.flatMap(imports_of);

t.test('every server module imports only from its own layer or below', async (t) => {
  t.ok(server_files.length > 50, `${server_files.length} server modules read`);
  t.ok(imports.length > 300, `${imports.length} relative imports read`);
  const upward = imports.filter((edge) => layer(edge.to) > layer(edge.from));
  const found = new Set<string>();
  for (const edge of upward) {
    const key = edge_name(edge);
    found.add(key);
    if (!known_upward.has(key)) t.fail(`${key} points up a layer (${layer(edge.from)} → ${layer(edge.to)})`);
  }
  for (const [key, why] of known_upward) t.ok(found.has(key), `the known exception ${key} (${why}) still exists; remove it from the list`);
  t.equal(upward.length - [...known_upward.keys()].filter((key) => found.has(key)).length, 0, 'no import points up a layer but the listed ones');
});

t.test('no circle of value imports among the server modules', async (t) => {
  const graph = new Map<string, string[]>();
  for (const file of server_files) graph.set(file, []);
  for (const edge of imports) if (!edge.type_only && graph.has(edge.to)) graph.get(edge.from)!.push(edge.to);
  const circles = strongly_connected(graph).filter((component) => component.length > 1);
  t.same(circles.map((component) => component.map(name).sort()), [], 'no module reaches itself through value imports');
});

t.test('no circle of imports among the server modules, type-only imports included', async (t) => {
  const graph = new Map<string, string[]>();
  for (const file of server_files) graph.set(file, []);
  for (const edge of imports) if (graph.has(edge.to)) graph.get(edge.from)!.push(edge.to);
  const circles = strongly_connected(graph).filter((component) => component.length > 1);
  t.same(circles.map((component) => component.map(name).sort()), [], 'no module reaches itself through its imports, of values or of types');
});

t.test('only the engine stages an account\'s changes: the layers above run commands', async (t) => {
  // AccountActor.stage_put and its kin throw outside a command (AccountActor.execute); a module above the
  // engine changes an account through Engine.run, its own records with the stage_records command.
  const staging = /\.(stage_put|stage_remove|stage_wallet|append_entry)\(/;
  const outside = server_files.filter((file) => !name(file).startsWith('engine/') && staging.test(readFileSync(file, 'utf8')));
  t.same(outside.map(name), [], 'no module outside engine/ calls stage_put, stage_remove, stage_wallet or append_entry');
});

t.test('the browser code imports nothing from the server', async (t) => {
  const browser_files = all_files.filter(is_browser);
  t.ok(browser_files.length > 5, `${browser_files.length} browser modules read`);
  for (const edge of browser_files.flatMap(imports_of)) {
    const target = name(edge.to);
    t.ok(is_browser(edge.to) || target.startsWith('..'), `${name(edge.from)} imports ${target}, not server code`);
  }
});

t.test('the checks catch what they are for', async (t) => {
  // The test's own machinery on made-up graphs: a circle is found, a chain is not one.
  const circle = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  t.same(strongly_connected(circle).filter((c) => c.length > 1).map((c) => c.sort()), [['a', 'b', 'c']], 'a three-module circle is found');
  const chain = new Map([['a', ['b']], ['b', ['c']], ['c', []]]);
  t.same(strongly_connected(chain).filter((c) => c.length > 1), [], 'a chain is no circle');
  const parsed = [...`import { x } from '../engine/engine.js';\nimport type { Y } from './y.js';\nexport { z } from '../lib/z.js';\nconst m = await import('../main.js');`.matchAll(import_pattern)];
  t.same(parsed.map((m) => [m[3] ?? m[4], m[2] !== undefined]), [['../engine/engine.js', false], ['./y.js', true], ['../lib/z.js', false], ['../main.js', false]], 'static, type-only, re-export and dynamic imports are all read');
});

/** Tarjan's algorithm, iterative-enough for a few hundred modules. */
function strongly_connected(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on_stack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    on_stack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (on_stack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        on_stack.delete(member);
        component.push(member);
      } while (member !== node);
      out.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return out;
}
