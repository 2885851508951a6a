// Hostile input on every public /v1 route (issue "Reliability and security campaign", item 3): a
// fast-check fuzzer sends mutated versions of a valid request to each route of GET /v1/openapi.json —
// every JSON type in place of each field and of the whole body, unicode (lone surrogates in escapes,
// RTL, zero-width, emoji), huge and tiny numbers, negative and fractional kobo, bodies just under and
// over 16 KiB, deep nesting, duplicated keys, wrong content types, invalid UTF-8, random path
// parameters and query strings, duplicated and garbled headers. After every request: never 500 nor
// internal.error, the spec's error envelope with a catalogued code, no stack trace or path in any
// body. After every batch of a route that changes state: if every request was refused, the account's
// wallets, orders, keys and webhooks are as they were. After every route: the server still serves.
//
// A second fuzzer (issue "Hardening from a hostile review") puts non-ASCII text, control bytes, bidi
// overrides and lone surrogates into every string field of every route that takes a JSON body: a
// forbidden character is a 400 validation.failed naming the field, and changes nothing.
//
// FUZZ_RUNS=<n> multiplies the run counts for a long run; FUZZ_SEED=<n> replays a run.
import t from 'tap';
import fc from 'fast-check';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import {
  FuzzLedger, describe_request, error_log_lines, fuzz_route, fuzz_scale, fuzz_seed, judge, load_catalog, make_world, send, snapshot, snapshot_difference, still_serving, type RouteEntry,
} from './helpers/route-catalog.js';

const receiver = new WebhookReceiver();
await receiver.start();
t.teardown(() => receiver.stop());
// The bank partner's route is in the document: it needs its secret to be configured and to sign with.
const funding_secret = 'fuzz-public-funding-secret-8c2e';
const server = await start_server(t, { env: webhook_env({ FUNDING_WEBHOOK_SECRET: funding_secret }) });
const catalog = await load_catalog(server);
const world = await make_world(server, { receiver, funding_secret });
const public_routes = catalog.routes.filter((r) => r.documented);
const seed = fuzz_seed();
const scale = fuzz_scale();

/** Starts the server again on its store after its process died, so that the other routes are still fuzzed. */
async function revive(): Promise<void> {
  await server.kill();
  await server.start();
}

t.test('the catalogue has a valid request for every operation of the OpenAPI document', async (t) => {
  t.same(catalog.missing_builders, [], 'every operation of GET /v1/openapi.json has a request builder in test/helpers/route-catalog.ts');
  t.ok(public_routes.length >= 24, `the document lists the public routes (${public_routes.length})`);
  // The builders are the fuzzer's starting points: each must be a request the server accepts. They
  // run against an account of their own, so the fuzzed account keeps its victims for later.
  const probe = await make_world(server, { receiver, funding_secret });
  for (const route of public_routes) {
    const response = await send(server, route.build(probe));
    // A route whose usual request is refused by design (a cancel of an order already sent) names its answer.
    const accepted = route.valid_status === undefined ? response.status >= 200 && response.status < 300 : response.status === route.valid_status;
    t.ok(accepted, `the valid request of ${route.name} is accepted (${response.status} ${response.body.slice(0, 160)})`);
    t.same(judge(response).problems, [], `the answer to the valid request of ${route.name} passes every check`);
  }
});

t.test('hostile requests to every public route never get a 500, always get the error envelope, and a refused one changes nothing', async (t) => {
  const ledger = new FuzzLedger();
  const started = Date.now();
  // Keys and endpoints the fuzzer itself needs are never the target of a DELETE.
  const protected_params = new Set([world.key_id, world.live_key_id, world.endpoint_id].map(String));
  const observer = { server, test_key: world.key, live_key: world.live_key };
  // Routes that change state run small batches (a state comparison needs every request refused).
  const run_plan = (route: RouteEntry) => route.changes_state ? { runs: Math.ceil(24 * scale), batch: 3 } : { runs: Math.ceil(14 * scale), batch: 8 };
  for (const [index, route] of public_routes.entries()) {
    // After a few deaths the fuzzer stops sending deep nesting (the known killer) to cover the rest.
    await fuzz_route(world, route, { ...run_plan(route), seed: seed + index, ledger, observer, mutation: { protected_params, deep: ledger.crashes < 3 }, revive });
  }
  t.comment(`seed ${seed} (FUZZ_SEED=${seed} replays), scale ${scale}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.comment(ledger.summary());
  t.ok(ledger.requests >= 1000 * Math.min(scale, 1), `the fuzzer sent at least 1000 hostile requests (${ledger.requests})`);
  t.same([...ledger.routes.keys()].sort(), public_routes.map((r) => r.name).sort(), 'every documented route was fuzzed');
  t.equal(ledger.crashes, 0, 'the server process never died under the fuzzer (each death is restarted and listed below)');
  for (const route of public_routes) {
    const tally = ledger.routes.get(route.name);
    t.equal(tally?.statuses.get(500) ?? 0, 0, `${route.name}: no 500 in ${tally?.requests ?? 0} hostile requests`);
    if (route.changes_state) t.ok((tally?.state_checks ?? 0) > 0, `${route.name}: at least one batch was wholly refused and its state compared (${tally?.state_checks ?? 0})`);
    const problems = ledger.report().filter((line) => line.startsWith(`${route.name} → `));
    t.same(problems, [], `${route.name}: every answer passed every check`);
  }
});

/** Characters no string field may hold (src/schemas/common.ts free_text_pattern): each must be refused. */
const forbidden_characters = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f', '\u0080', '\u0085', '\u009b', '\u009f',
  '\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069',
  '\ud800', '\udbff', '\udc00', '\udfff',
];
/** Non-ASCII text that is fine in free text (it may still be refused by a field's own pattern). */
const allowed_non_ascii = ['é', 'Ọ̀', 'ü-order', '₦', '😀', '\u00a0', '日本', 'ﬁ', '\u200d', 'Ω'];

/** The paths of every string in a JSON value, e.g. ["name"], ["ip_allowlist", 0]. */
function string_paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [prefix];
  if (Array.isArray(value)) return value.flatMap((item, i) => string_paths(item, [...prefix, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => string_paths(v, [...prefix, k]));
  return [];
}

function with_string(body: unknown, path: (string | number)[], edit: (old: string) => string): unknown {
  const copy = structuredClone(body) as any;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part];
  node[path[path.length - 1]] = edit(node[path[path.length - 1]]);
  return copy;
}

const body_routes = catalog.routes.filter((r) => r.body_fields.length > 0);

t.test('non-ASCII text, control bytes, bidi overrides and lone surrogates in every string field: never a 500, a forbidden character is 400 naming the field and changes nothing', async (t) => {
  const observer = { server, test_key: world.key, live_key: world.live_key };
  let sent = 0;
  for (const [index, route] of body_routes.entries()) {
    const base = route.build(world);
    const paths = string_paths(base.body);
    if (paths.length === 0) continue;
    // The sign-in compares what it is given with the stored email and password: an odd email is an
    // unknown one (401), not a malformed request. It must still never fail.
    // The bank's notifications answer 503 on this server, which has no funding secret, before reading
    // the body.
    const must_refuse = route.name !== 'POST /dashboard/api/session' && !(route.auth === 'signature' && world.funding_secret === null);
    // A bulk order validates each item on its own (docs/api.md "Bulk orders"): a forbidden character in an
    // item refuses that item alone, in the 202, and the batch's other items are placed.
    const per_item = route.name === 'POST /v1/services/bulk';
    for (const forbidden of [true, false]) {
      const edit = fc.record({ path: fc.constantFrom(...paths), character: fc.nat(), at: fc.nat(), repeat: fc.integer({ min: 1, max: 3 }) });
      const before = forbidden ? await snapshot(observer) : null;
      const property = fc.asyncProperty(edit, async ({ path, character, at, repeat }) => {
        const list = forbidden ? forbidden_characters : allowed_non_ascii;
        const inserted = list[character % list.length].repeat(repeat);
        const spec = route.build(world);
        spec.body = with_string(spec.body, path, (old) => old.slice(0, at % (old.length + 1)) + inserted + old.slice(at % (old.length + 1)));
        const response = await send(server, spec);
        sent++;
        const what = `${route.name} with ${JSON.stringify(inserted)} in ${path.join('.')} — ${describe_request(spec).slice(0, 200)}`;
        t.same(judge(response).problems, [], `${what}: the answer passes every check (${response.status})`);
        t.not(response.status, 500, `${what}: not a 500`);
        // An item's service_type is part of the batch's own shape (it picks the item's schema): refused as a whole.
        if (forbidden && must_refuse && per_item && path[0] === 'items' && path[2] !== 'service_type') {
          const parsed = JSON.parse(response.body);
          const item = parsed?.data?.items?.[path[1] as number];
          const fields: string[] = item?.error?.details?.map((d: { field: string }) => d.field) ?? [];
          t.equal(response.status, 202, `${what}: the batch is answered 202 (${response.body.slice(0, 200)})`);
          t.equal(item?.status, 'refused', `${what}: the item is refused`);
          t.equal(item?.reference, null, `${what}: the item placed nothing`);
          t.equal(item?.error?.code, 'validation.failed', `${what}: the item's error is validation.failed`);
          t.ok(fields.includes(path.join('.')), `${what}: the item's details name ${path.join('.')} (${fields.join(', ')})`);
        } else if (forbidden && must_refuse) {
          const parsed = JSON.parse(response.body);
          const fields: string[] = parsed?.error?.details?.map((d: { field: string }) => d.field) ?? [];
          t.equal(response.status, 400, `${what}: refused with 400 (${response.body.slice(0, 200)})`);
          t.equal(parsed?.error?.code, 'validation.failed', `${what}: validation.failed`);
          t.ok(fields.includes(path.join('.')), `${what}: the details name ${path.join('.')} (${fields.join(', ')})`);
        }
        return true;
      });
      await fc.assert(property, { numRuns: Math.ceil((forbidden ? 30 : 12) * scale), seed: seed + 1000 + index * 2 + (forbidden ? 0 : 1), endOnFailure: true });
      // The bulk route's other items are placed: what it must leave unchanged is checked item by item above.
      if (before !== null && must_refuse && !per_item) {
        const after = await snapshot(observer);
        t.equal(after, before, `${route.name}: the refused requests changed nothing (${snapshot_difference(before, after)})`);
      }
    }
  }
  t.ok(sent >= 100, `hostile strings were sent to every string field (${sent} requests over ${body_routes.length} routes)`);
  t.equal(await still_serving(world), null, 'the server still serves');
});

t.test('regression: a deeply nested JSON body neither kills the server nor answers 500 (the idempotency fingerprint recursed over it)', async (t) => {
  // Found by the fuzzer: canonical() recursed once per nesting level, and about 3500 levels (a 7 KiB
  // body, well under the 16 KiB limit) overflowed the stack and killed the process. Bodies now nest
  // at most 32 levels (docs/decisions.md "Bodies and headers"): deeper ones are a 400 before they are parsed.
  const keys = catalog.routes.find((r) => r.name === 'POST /v1/keys')!;
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const rows: [string, string, number[]][] = [
    ['a whole body of arrays nested 5000 deep', nested(5000), [400]],
    ['a valid body with an unknown field of arrays nested 5000 deep', `{"name":"deep","environment":"test","x":${nested(5000)}}`, [400]],
    ['a valid body with an unknown field of objects nested 3200 deep', `{"name":"deep","environment":"test","x":${'{"":'.repeat(3200)}1${'}'.repeat(3200)}}`, [400]],
    ['a valid body with an unknown field nested 31 deep (within the limit)', `{"name":"deep","environment":"test","x":${nested(31)}}`, [201, 422]],
    ['a valid body with an unknown field nested 32 deep (one over the limit)', `{"name":"deep","environment":"test","x":${nested(32)}}`, [400]],
  ];
  for (const [what, text, statuses] of rows) {
    const spec = keys.build(world);
    spec.body = undefined;
    spec.raw_body = Buffer.from(text);
    const response = await send(server, spec).then((r) => r, (e: Error) => e);
    const died = response instanceof Error && (await still_serving(world)) !== null;
    t.notOk(died, `POST /v1/keys with X-Idempotency-Key and ${what} (${text.length} bytes) leaves the server running`);
    if (died) {
      await revive();
      continue;
    }
    const status = response instanceof Error ? 0 : response.status;
    t.ok(statuses.includes(status), `POST /v1/keys with ${what} answers ${statuses.join(' or ')}, not 500: ${response instanceof Error ? response.message : `${response.status} ${response.body.slice(0, 120)}`}`);
  }
});

t.test('the server logged no error or fatal line while it was fuzzed and still answers normal requests', async (t) => {
  t.equal(await still_serving(world), null, '/readyz is 200 and GET /v1/account is 200 after the fuzzing');
  const wallet = await server.api('GET', '/v1/wallet', { key: world.key });
  t.equal(wallet.status, 200, 'a normal GET /v1/wallet is 200');
  const purchase = await server.api('POST', '/v1/services/airtime', { key: world.key, body: { network: 'mtn', phone: '08011111111', amount: 50, pin: world.pin } });
  t.ok([201, 429].includes(purchase.status), `a normal purchase is served (201, or 429 pin.locked if the fuzzer guessed wrong PINs): ${purchase.status} ${purchase.text.slice(0, 160)}`);
  const lines = error_log_lines(server).map((line) => line.slice(0, 400));
  t.same(lines, [], 'no log line at level error or fatal');
  t.same(server.stderr.filter((chunk) => chunk.trim() !== ''), [], 'nothing on stderr');
});
