// The supported Node.js versions (docs/operations.md "Runtime"): 20 and 22, the long-term releases that
// uws-pack@20.0.8 has binaries for; any other stops the server at start with a message naming them.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check_node_version, is_supported_node } from '../src/lib/node-version.js';
import { repo_root } from './helpers/server.js';

t.test('Node.js 20 and 22 are supported, and nothing else', async (t) => {
  const rows: [string, boolean][] = [
    ['v20.20.2', true], ['v22.11.0', true], ['v18.20.4', false], ['v21.7.3', false], ['v23.0.0', false], ['v24.1.0', false], ['nonsense', false],
  ];
  for (const [version, supported] of rows) t.equal(is_supported_node(version), supported, `${version} is ${supported ? '' : 'not '}supported`);
});

t.test('an unsupported version stops the server with a message naming the supported ones', async (t) => {
  t.throws(() => check_node_version('v24.1.0'), { message: 'billvend runs on Node.js 20 and 22; this is Node.js v24.1.0' }, 'Node 24 is refused by name');
  t.doesNotThrow(() => check_node_version(process.version), 'this Node.js is supported');
});

t.test('package.json engines names the same versions', async (t) => {
  const engines = JSON.parse(readFileSync(join(repo_root, 'package.json'), 'utf8')).engines.node;
  t.equal(engines, '^20.0.0 || ^22.0.0', 'engines says 20 and 22');
});
