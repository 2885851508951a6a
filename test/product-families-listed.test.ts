// Every place that lists the products names all eight families (finding new-user-2026-11-27 item 4: the history
// filter, the routes taking client_reference, the full order record, "Pricing", the OpenAPI description, the
// package description and the docs site named four). The one list is service_type_names
// (src/engine/order-record.ts); the product families (src/services/products/registry.ts) sell exactly those, and
// each document below is checked against them.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo_root, start_server } from './helpers/server.js';
import { service_type_names } from '../src/engine/order-record.js';
import { product_families } from '../src/services/products/registry.js';

/** How prose names each family: its service type, or the words people use for it. */
const spoken: Record<string, RegExp> = {
  airtime: /\bairtime\b/i,
  data: /\bdata\b/i,
  electricity: /\belectricity\b/i,
  tv: /\btv\b/i,
  education: /\beducation\b|\bWAEC\b|\bJAMB\b/,
  internet: /\binternet\b|\bSmile\b|\bSpectranet\b/,
  showmax: /\bshowmax\b/i,
  international: /\binternational\b/i,
};

function names_all(t: Test, text: string | undefined, where: string): void {
  t.ok(text !== undefined && text.length > 0, `${where} is found`);
  for (const name of service_type_names) t.match(text ?? '', spoken[name]!, `${where} names ${name}`);
}

/** The paragraph (text up to the next blank line) that starts with `opening`. */
function paragraph(text: string, opening: string): string | undefined {
  const at = text.indexOf(opening);
  if (at < 0) return undefined;
  const end = text.indexOf('\n\n', at);
  return text.slice(at, end < 0 ? undefined : end);
}

const api_md = readFileSync(join(repo_root, 'docs', 'api.md'), 'utf8');

t.test('the product families sell exactly the service types of the one list', async (t) => {
  t.same(product_families.map((family) => family.service_type), [...service_type_names], 'one family per service type, in the list\'s order');
  t.same(Object.keys(spoken), [...service_type_names], 'this test knows how prose names each of them');
});

t.test('docs/api.md names every family wherever it lists them', async (t) => {
  names_all(t, paragraph(api_md, 'The full order record:'), 'the full order record');
  names_all(t, /^\| `service_type` \|.*$/m.exec(api_md)?.[0], 'the history service_type filter');
  names_all(t, paragraph(api_md, 'Each item is the purchase body of its `service_type`'), 'the bulk item\'s service types');
  names_all(t, paragraph(api_md, '- a rule names a `service_type`'), 'the pricing rule\'s service types');
  names_all(t, paragraph(api_md, '- `amount`, `amount_charged` and `commission`'), 'the purchase results carrying amount_charged ("Pricing")');
  const client_reference_routes = paragraph(api_md, 'Every purchase body (');
  for (const family of product_families) {
    t.ok(client_reference_routes?.includes(`${family.purchase.path}\``), `the routes taking client_reference include ${family.purchase.path}`);
  }
  for (const family of product_families) {
    t.match(api_md, new RegExp(`^#### \`POST ${family.purchase.path}\``, 'm'), `"Every endpoint by example" shows the ${family.service_type} purchase`);
  }
});

t.test('the package, the docs site and the OpenAPI document name every family', async (t) => {
  const package_json = JSON.parse(readFileSync(join(repo_root, 'package.json'), 'utf8')) as { description: string };
  names_all(t, package_json.description, 'package.json description');
  const site = readFileSync(join(repo_root, 'src', 'docs-site', 'index.html'), 'utf8');
  names_all(t, /<meta name="description" content="([^"]*)"/.exec(site)?.[1], 'the docs site\'s description');
  names_all(t, /<p class="lead">([\s\S]*?)<\/p>/.exec(site)?.[1], 'the getting-started lead');
  for (const family of product_families) {
    t.ok(site.includes(`$BASE${family.purchase.path}"`), `the getting-started page has a ${family.service_type} purchase (${family.purchase.path})`);
  }

  const server = await start_server(t);
  const doc = (await server.api('GET', '/v1/openapi.json')).body as { info: { description: string }; paths: Record<string, any> };
  names_all(t, doc.info.description, 'the OpenAPI description');
  const list = doc.paths['/v1/transactions'].get;
  names_all(t, list.summary, 'the transaction list\'s summary');
  const filter = list.parameters.find((p: { name: string }) => p.name === 'service_type');
  t.same(filter?.schema?.enum, [...service_type_names], 'the service_type filter takes every service type');
  for (const family of product_families) t.ok(doc.paths[family.purchase.path]?.post, `the OpenAPI document has ${family.purchase.path}`);

  const reseller = await server.reseller(10);
  const refused = await server.api('GET', '/v1/transactions?service_type=gas', { key: reseller.key });
  t.equal(refused.status, 400, 'an unknown service_type is refused');
  names_all(t, refused.body.error?.message, 'the refusal\'s message');
  for (const name of service_type_names) {
    const filtered = await server.api('GET', `/v1/transactions?service_type=${name}`, { key: reseller.key });
    t.equal(filtered.status, 200, `the filter takes ${name}`);
  }
});
