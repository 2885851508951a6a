// `billvend listen` and `billvend trigger` (docs/api.md "Webhooks on your laptop"): what `stripe listen` and
// `stripe trigger` are to Stripe. listen follows the events feed (GET /v1/events) with an API key and POSTs each
// new event to a local URL, signed exactly as a real delivery (delivery-headers.ts, the worker's `sign`) with a
// secret it makes and prints at start, so a receiver on a laptop verifies it as it will verify billvend's own
// deliveries. trigger makes, with a test key, the sandbox purchase or credit that emits an event of the kind asked.
// Both speak to the public API, not the operator API.
import { setTimeout as sleep } from 'node:timers/promises';
import { parse_command, command_usage, UsageError, integer_value, list_value, type CommandSpec } from './cli-args.js';
import { ClientError } from './cli-client.js';
import { sign } from '../webhooks/webhook-signer.worker.js';
import { delivery_headers } from '../webhooks/delivery-headers.js';
import { new_webhook_secret } from '../lib/ids.js';
import { crypto_random } from '../lib/random.js';
import { event_kinds } from '../webhooks/records.js';

const api_url_default = 'http://localhost:8080';
/** The events asked for per feed request (the feed's own limit_max). */
const feed_page_max = 100;
const poll_ms_default = 1000;
/** A forwarded event waits this long for the local answer, as a real delivery does (docs/api.md "Webhooks"). */
const forward_timeout_ms = 10_000;
/** One feed request; past this, listen says so and asks again. */
const feed_timeout_ms = 30_000;

const key_option = { name: 'key', value: 'KEY', summary: 'an API key (bv_test_… or bv_live_…); default $BILLVEND_KEY' };
const api_option = { name: 'api-url', value: 'URL', summary: `where the API is served; default $BILLVEND_API_URL or ${api_url_default}` };

export const listen_spec: CommandSpec = {
  words: ['listen'],
  summary: 'Forward the events of a key\'s environment to a local URL, signed as real deliveries.',
  positionals: [],
  options: [
    { name: 'forward-to', value: 'URL', summary: 'where to POST each event, e.g. http://localhost:3000/hooks', required: true },
    key_option,
    api_option,
    { name: 'events', value: 'KIND,KIND', summary: 'only these kinds (default every kind)' },
    { name: 'after', value: 'EVENT_ID', summary: 'start after this event (default: only events from now on)' },
    { name: 'secret', value: 'WHSEC', summary: 'sign with this whsec_ secret instead of a new one (keep your receiver\'s configuration)' },
    { name: 'poll-ms', value: 'MS', summary: `how often to ask the feed for new events, 50 to 60000 (default ${poll_ms_default})` },
  ],
  notes: 'It prints the signing secret first, then one line per event: time, kind, id and the local answer\'s\n'
    + 'status (or why there was none). Verify with the webhook-signature header (Standard Webhooks) or\n'
    + 'X-Service-Signature, as for real deliveries. Each event is sent once; Ctrl-C stops.',
};

/** What trigger does for each kind: the request, and the events it emits (sandbox numbers: docs/api.md "Sandbox"). */
interface Trigger {
  summary: string;
  pin: boolean;
  path: string;
  body(pin: string): Record<string, unknown>;
  emits: string[];
}

const airtime = (phone: string) => (pin: string) => ({ network: 'mtn', phone, amount: 100, pin });

export const triggers: Record<string, Trigger> = {
  'transaction.completed': { summary: 'NGN 100 of MTN airtime to 08011111111 (delivered)', pin: true, path: '/v1/services/airtime', body: airtime('08011111111'), emits: ['wallet.debited', 'transaction.completed'] },
  'transaction.failed': { summary: 'NGN 100 of MTN airtime to 08022222222 (fails, refunded)', pin: true, path: '/v1/services/airtime', body: airtime('08022222222'), emits: ['wallet.debited', 'transaction.failed', 'wallet.reversed'] },
  'transaction.processing': { summary: 'NGN 100 of MTN airtime to 08033333333 (processing, delivered 30 s later)', pin: true, path: '/v1/services/airtime', body: airtime('08033333333'), emits: ['wallet.debited', 'transaction.processing', 'transaction.completed'] },
  'wallet.credited': { summary: 'NGN 1,000 of sandbox money (POST /v1/sandbox/wallet/fund)', pin: false, path: '/v1/sandbox/wallet/fund', body: () => ({ amount: 1000 }), emits: ['wallet.credited'] },
  'wallet.debited': { summary: 'as transaction.completed', pin: true, path: '/v1/services/airtime', body: airtime('08011111111'), emits: ['wallet.debited', 'transaction.completed'] },
  'wallet.reversed': { summary: 'as transaction.failed', pin: true, path: '/v1/services/airtime', body: airtime('08022222222'), emits: ['wallet.debited', 'transaction.failed', 'wallet.reversed'] },
  'batch.completed': {
    summary: 'a bulk order of two airtime purchases, 08011111111 and 08022222222',
    pin: true,
    path: '/v1/services/bulk',
    body: (pin) => ({ pin, items: [{ service_type: 'airtime', network: 'mtn', phone: '08011111111', amount: 100 }, { service_type: 'airtime', network: 'mtn', phone: '08022222222', amount: 100 }] }),
    emits: ['wallet.debited', 'transaction.completed', 'transaction.failed', 'wallet.reversed', 'batch.completed'],
  },
};

export const trigger_spec: CommandSpec = {
  words: ['trigger'],
  summary: 'Make, with a test key, the sandbox purchase or credit that emits an event of this kind.',
  positionals: [{ name: 'kind', summary: `one of ${Object.keys(triggers).join(', ')}` }],
  options: [
    key_option,
    api_option,
    { name: 'pin', value: 'PIN', summary: 'the transaction PIN, for the kinds that buy; default $BILLVEND_PIN' },
  ],
  notes: `What each kind does (NGN 100 each, from the test wallet; nothing real is bought):\n${Object.entries(triggers).map(([kind, trigger]) => `  ${kind.padEnd(24)} ${trigger.summary}`).join('\n')}\n`
    + 'wallet.low_balance and service.status_changed follow from settings and upstreams, not from one request.',
};

interface ApiTarget {
  base: string;
  key: string;
}

function api_target(values: Record<string, string | undefined>, usage: string): ApiTarget {
  const key = values.key ?? process.env.BILLVEND_KEY;
  if (key === undefined || key === '') throw new UsageError('an API key is needed: --key KEY or BILLVEND_KEY', usage);
  const base = (values['api-url'] ?? process.env.BILLVEND_API_URL ?? api_url_default).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+$/.test(base)) throw new UsageError(`--api-url must be http(s)://host[:port], got "${base}"`, usage);
  return { base, key };
}

interface FeedPage {
  events: { id: string; kind: string; body: string }[];
  has_more: boolean;
  next_after: string | null;
}

/**
 * The events of a feed page as the exact JSON text the server stored and delivers: parsing and encoding them
 * again could reorder keys (an integer-like metadata key moves first), and the signature covers the bytes.
 */
export function raw_events(page_text: string): string[] {
  const start = page_text.indexOf('"events":[');
  if (start < 0) throw new ClientError('the events feed answered without data.events');
  const events: string[] = [];
  let depth = 0;
  let in_string = false;
  let item_start = -1;
  for (let i = start + '"events":['.length; i < page_text.length; i++) {
    const char = page_text[i];
    if (in_string) {
      if (char === '\\') i++;
      else if (char === '"') in_string = false;
      continue;
    }
    if (char === '"') in_string = true;
    else if (char === '{' || char === '[') {
      if (depth === 0) item_start = i;
      depth++;
    } else if (char === '}' || char === ']') {
      if (depth === 0) return events;
      depth--;
      if (depth === 0) events.push(page_text.slice(item_start, i + 1));
    }
  }
  throw new ClientError('the events feed answered an unfinished list');
}

async function api_request(target: ApiTarget, method: 'GET' | 'POST', path: string, body?: unknown, idempotency_key?: string): Promise<{ status: number; text: string; json: any }> {
  let response: Response;
  try {
    response = await fetch(target.base + path, {
      method,
      headers: {
        authorization: `Bearer ${target.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotency_key === undefined ? {} : { 'x-idempotency-key': idempotency_key }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(feed_timeout_ms),
    });
  } catch (error) {
    throw new ClientError(`cannot reach the API at ${target.base}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ClientError(`the API answered ${response.status} with a body that is not JSON`);
  }
  return { status: response.status, text, json };
}

function error_text(json: any, status: number): string {
  const details = (json?.error?.details as { field: string; message: string }[] | undefined)?.map((d) => `\n  ${d.field}: ${d.message}`).join('') ?? '';
  return `${json?.error?.code ?? status}: ${json?.error?.message ?? 'request failed'}${details}`;
}

async function read_feed(target: ApiTarget, after: string | null): Promise<FeedPage> {
  const answer = await api_request(target, 'GET', `/v1/events?limit=${feed_page_max}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`);
  if (answer.status !== 200 || answer.json?.success !== true) throw new ClientError(`the events feed refused: ${error_text(answer.json, answer.status)}`);
  const texts = raw_events(answer.text);
  const parsed = answer.json.data.events as { id: string; event: string }[];
  if (texts.length !== parsed.length) throw new ClientError('the events feed answered a list listen cannot split');
  return {
    events: parsed.map((event, i) => ({ id: event.id, kind: event.event, body: texts[i] })),
    has_more: answer.json.data.has_more === true,
    next_after: answer.json.data.next_after ?? null,
  };
}

/** POSTs one event, signed as a delivery; the local answer's status, or why there was none. */
async function forward(url: string, secret: string, event: { id: string; kind: string; body: string }, now_s: number): Promise<string> {
  const signatures = sign({ secret, event_id: event.id, timestamp_s: now_s, body: event.body });
  const body = Buffer.from(event.body);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: delivery_headers(event, body.length, signatures, now_s),
      body,
      signal: AbortSignal.timeout(forward_timeout_ms),
      redirect: 'manual',
    });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return `no answer within ${forward_timeout_ms / 1000} s`;
    return `failed: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`;
  }
}

function clock_text(): string {
  return new Date().toISOString().slice(11, 19);
}

export async function run_listen(argv: readonly string[]): Promise<number> {
  const usage = command_usage(listen_spec);
  const parsed = parse_command(listen_spec, argv);
  if (parsed.help) {
    process.stdout.write(usage);
    return 0;
  }
  const { values } = parsed;
  const target = api_target(values, usage);
  const forward_to = values['forward-to']!;
  let forward_url: URL;
  try {
    forward_url = new URL(forward_to);
  } catch {
    throw new UsageError(`--forward-to must be a URL such as http://localhost:3000/hooks, got "${forward_to}"`, usage);
  }
  if (forward_url.protocol !== 'http:' && forward_url.protocol !== 'https:') throw new UsageError('--forward-to must be an http or https URL', usage);
  const kinds = list_value(values.events);
  for (const kind of kinds ?? []) {
    if (!(event_kinds as readonly string[]).includes(kind)) throw new UsageError(`--events: "${kind}" is not an event kind (${event_kinds.join(', ')})`, usage);
  }
  const poll_ms = integer_value(values['poll-ms'], 'poll-ms', usage) ?? poll_ms_default;
  if (poll_ms < 50 || poll_ms > 60_000) throw new UsageError('--poll-ms must be from 50 to 60000', usage);
  const secret = values.secret ?? new_webhook_secret(crypto_random);
  if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)) throw new UsageError('--secret must be whsec_ followed by base64 text', usage);

  // Where to start: after the event given, or at the end of the feed as it is now (only new events).
  let after: string | null = values.after ?? null;
  if (after === null) {
    for (;;) {
      const page = await read_feed(target, after);
      after = page.next_after ?? after;
      if (!page.has_more) break;
    }
  }
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`Ready. Forwarding events to ${forward_url.href}; your webhook signing secret is ${secret} (Ctrl-C to quit)\n`);
  try {
    while (!stopped.signal.aborted) {
      const page = await read_feed(target, after);
      for (const event of page.events) {
        if (stopped.signal.aborted) break;
        after = event.id;
        if (kinds !== undefined && !kinds.includes(event.kind)) continue;
        const outcome = await forward(forward_url.href, secret, event, Math.floor(Date.now() / 1000));
        process.stdout.write(`${clock_text()}  --> ${event.kind} [${event.id}]  <-- ${outcome}\n`);
      }
      if (page.next_after !== null) after = page.next_after;
      if (page.has_more) continue;
      try {
        await sleep(poll_ms, undefined, { signal: stopped.signal });
      } catch {
        break;
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}

export async function run_trigger(argv: readonly string[]): Promise<number> {
  const usage = command_usage(trigger_spec);
  const parsed = parse_command(trigger_spec, argv);
  if (parsed.help) {
    process.stdout.write(usage);
    return 0;
  }
  const kind = parsed.positionals[0]!;
  const trigger = triggers[kind];
  if (trigger === undefined || !Object.hasOwn(triggers, kind)) throw new UsageError(`<kind> must be one of ${Object.keys(triggers).join(', ')}, got "${kind}"`, usage);
  const target = api_target(parsed.values, usage);
  if (!target.key.startsWith('bv_test_')) throw new UsageError('trigger buys from the sandbox: it takes a test key (bv_test_…)', usage);
  const pin = parsed.values.pin ?? process.env.BILLVEND_PIN ?? '';
  if (trigger.pin && !/^\d{5}$/.test(pin)) throw new UsageError(`${kind} buys, so it needs the transaction PIN: --pin PIN or BILLVEND_PIN`, usage);
  const answer = await api_request(target, 'POST', trigger.path, trigger.body(pin), `trigger-${new_webhook_secret(crypto_random).slice(6, 30)}`);
  // A refused purchase (transaction.failed) is what some kinds ask for: its refusal still made the events.
  const made_events = answer.json?.success === true || answer.json?.error?.code === 'transaction.failed';
  if (!made_events) {
    process.stderr.write(`billvend: ${error_text(answer.json, answer.status)}\n`);
    return 1;
  }
  const reference = answer.json?.data?.reference ?? answer.json?.error?.reference ?? answer.json?.data?.id ?? null;
  process.stderr.write(`billvend: triggered ${kind}: ${trigger.summary}${reference === null ? '' : `, ${reference}`}; events: ${trigger.emits.join(', ')}\n`);
  process.stdout.write(JSON.stringify(answer.json.success === true ? answer.json.data : answer.json.error, null, 2) + '\n');
  return 0;
}
