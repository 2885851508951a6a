// docs/api.md "Every endpoint by example": every operation of the OpenAPI document has an example there, each
// example's request body is the document's own request example, and its body and answer match the document's
// schemas (Ajv, JSON Schema 2020-12, as the conformance test validates the server's real answers). A field renamed in a schema, or a body written from memory with a
// guessed field name, fails here. The examples' answers were taken from a real server (their curl commands run).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repo_root, start_server } from './helpers/server.js';

interface Example {
  method: string;
  template: string;
  heading: string;
  body: unknown;
  command: string;
  status: number | null;
  answer: unknown;
  answer_lang: string;
}

function examples(markdown: string): Example[] {
  const start = markdown.indexOf('\n## Every endpoint by example\n');
  if (start < 0) return [];
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  const found: Example[] = [];
  for (const part of section.split(/^#### /m).slice(1)) {
    const head = /^`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/.exec(part);
    if (head === null) continue;
    const blocks = [...part.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]!, at: m.index! }));
    const command = blocks.find((b) => b.lang === 'sh');
    const body = blocks.find((b) => b.lang === 'json' && command !== undefined && b.at < command.at);
    const answer_at = part.search(/^Answer, \d{3}/m);
    const answer = answer_at < 0 ? undefined : blocks.find((b) => b.at > answer_at);
    found.push({
      method: head[1]!,
      template: head[2]!,
      heading: part.split('\n')[0]!,
      body: body === undefined ? undefined : JSON.parse(body.text),
      command: command?.text ?? '',
      status: answer_at < 0 ? null : Number(/^Answer, (\d{3})/m.exec(part)![1]),
      answer: answer?.lang === 'json' ? JSON.parse(answer.text) : answer?.text,
      answer_lang: answer?.lang ?? '',
    });
  }
  return found;
}

const server = await start_server(t);
const text = (await server.api('GET', '/v1/openapi.json')).text;
const doc = JSON.parse(text) as { paths: Record<string, Record<string, any>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...doc, $id: 'https://billvend.test/openapi.json' });
const pointer = (parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const schema = (parts: string[]) => ajv.getSchema(`https://billvend.test/openapi.json#/paths/${pointer(parts)}`);
const found = examples(readFileSync(join(repo_root, 'docs', 'api.md'), 'utf8'));

t.test('every operation of the OpenAPI document has an example in docs/api.md', async (t) => {
  const documented = new Set(found.map((e) => `${e.method} ${e.template}`));
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const method of Object.keys(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      t.ok(documented.has(`${method.toUpperCase()} ${path}`), `${method.toUpperCase()} ${path} has an example`);
    }
  }
  for (const example of found) {
    t.ok(doc.paths[example.template]?.[example.method.toLowerCase()], `the example ${example.heading} is an operation of the document`);
  }
});

t.test('each example\'s command calls its endpoint, its body and answer match the schemas', async (t) => {
  for (const example of found) {
    const operation = doc.paths[example.template]?.[example.method.toLowerCase()];
    if (operation === undefined) continue;
    const name = example.heading;
    const path_pattern = example.template.replace(/\{[a-z_]+\}/g, '[^/?"\\s]+');
    t.match(example.command, new RegExp(`localhost:8080${path_pattern}(\\?|"|\\s|$)`), `${name}: the command calls localhost:8080${example.template}`);
    if (example.method !== 'GET' && example.template !== '/v1/funding/bank-transfer') {
      t.match(example.command, new RegExp(`-X ${example.method}\\b`), `${name}: with method ${example.method}`);
    }
    const takes_body = operation.requestBody !== undefined;
    if (example.body !== undefined || (takes_body && operation.requestBody.required)) {
      t.ok(takes_body, `${name}: the operation takes a body`);
      t.not(example.body, undefined, `${name}: the request body is shown as a json block`);
      const validate = schema([example.template, example.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema']);
      if (validate !== undefined && example.body !== undefined) {
        t.ok(validate(example.body), `${name}: the request body matches its schema ${JSON.stringify(validate.errors ?? [])}`);
      }
      if (example.body !== undefined && !example.heading.includes('(')) {
        const published = operation.requestBody?.content?.['application/json']?.example;
        t.same(published, example.body, `${name}: the OpenAPI document's request example is this body`);
      }
      if (example.body !== undefined && /"pin"/.test(JSON.stringify(example.body))) {
        t.match(example.command, /"'"\$PIN"'"/, `${name}: the command sends the PIN from $PIN`);
      }
    }
    if (example.template === '/v1/openapi.json') continue;
    t.ok(example.status !== null, `${name}: the answer is shown with its status`);
    if (example.status === null) continue;
    const response = operation.responses[String(example.status)];
    t.ok(response, `${name}: status ${example.status} is documented`);
    const media = Object.keys(response?.content ?? {})[0];
    if (media === 'application/json') {
      t.equal(example.answer_lang, 'json', `${name}: the answer is a json block`);
      const validate = schema([example.template, example.method.toLowerCase(), 'responses', String(example.status), 'content', media, 'schema']);
      t.ok(validate, `${name}: the ${example.status} schema compiles`);
      if (validate !== undefined) t.ok(validate(example.answer), `${name}: the answer matches its schema ${JSON.stringify(validate.errors ?? [])}`);
    } else if (media !== undefined) {
      t.ok(example.answer_lang.length > 0, `${name}: the ${media} answer is shown`);
    }
  }
  t.ok(found.length >= 42, `${found.length} examples were checked`);
});
