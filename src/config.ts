// Configuration (docs/operations.md): every setting is an environment variable, also accepted as a
// --kebab-case flag of `billvend serve`. Defaults make `npm start` on a fresh clone a working server.
import { isIP } from 'node:net';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { parse_cidr, type CidrBlock } from './lib/ip-address.js';

export interface ProviderConfig {
  base_url: string;
  api_key: string;
  secret_key: string;
  public_key: string;
  timeout_ms: number;
}

/** The upstream API shapes billvend speaks (src/services/upstreams/). */
export const upstream_kinds = ['vtpass', 'flutterwave'] as const;
export type UpstreamKind = (typeof upstream_kinds)[number];

/** One live upstream aggregator (docs/operations.md "Upstreams and routes"): its name is what routes list. */
export interface UpstreamConfig extends ProviderConfig {
  name: string;
  kind: UpstreamKind;
  /**
   * SHA-256 (hex) of the secret in the upstream's callback URL, /callbacks/vtpass/{name}/{callback_token}
   * (docs/upstreams.md "Callbacks and reversals"); the token itself is not kept. Null: no callbacks taken.
   */
  callback_token_sha256?: string | null;
}

/** A callback token: long enough not to be guessed, and only characters a URL path carries as they are. */
export const callback_token_pattern = /^[A-Za-z0-9_-]{32,128}$/;

/** Upstreams one server may name: each has a circuit, metrics series and a place in routes. */
export const upstreams_max = 16;

/** ACTORS_RESIDENT_MAX's default (docs/operations.md "Actors in memory"): about 250 MiB of heap at ~2.5 KiB an actor. */
export const actors_resident_max_default = 100_000;
/** STATEMENT_ENTRIES_MAX's default: most entries one statement holds (JSON or CSV); a busier day answers 422 statement.too_large. */
export const statement_entries_max = 100_000;
/** STATEMENT_PDF_ENTRIES_MAX's default: most entries a PDF statement holds (about 45 a page: 450 pages); past it, JSON or CSV. */
export const statement_pdf_entries_max = 20_000;
/** STATEMENT_BUILDS_MAX's default: statements being built at once in the process; past it, 429 with Retry-After. */
export const statement_builds_max = 4;

/** PORTED_NUMBERS_MAX's default (docs/operations.md "Ported numbers"): 2^23 slots of 5 bytes, 42 MB at most. */
export const ported_numbers_max_default = 4_000_000;

/** Cluster mode (docs/cluster.md): set by CLUSTER_NATS_URL; null runs a single node, as before. */
export interface ClusterConfig {
  nats_urls: string[];
  node_name: string;
  lease_ms: number;
  replicas: number;
  /** A snapshot is taken after this many appended batches, or after snapshot_interval_ms. */
  snapshot_batches_max: number;
  snapshot_interval_ms: number;
  /** How long start-up keeps retrying while NATS or JetStream does not answer (an election) before it gives up. */
  start_wait_ms_max: number;
}

export interface Config {
  port: number;
  host: string;
  admin_port: number;
  admin_host: string;
  admin_token: string | null;
  data_dir: string;
  log_level: string;
  /** json (one pino JSON line each, the default) or pretty (pino-pretty, for a terminal). */
  log_format: 'json' | 'pretty';
  time_scale: number;
  demo: 'auto' | 'on' | 'off';
  cors_origins: string[];
  trusted_proxies: CidrBlock[];
  webhook_allow_private_targets: boolean;
  funding_webhook_secret: string | null;
  /** The bank account resellers pay into to fund live wallets, shown on the dashboard's Funding page; null: not configured. */
  funding_bank: FundingBankConfig | null;
  master_key: string | null;
  provider: ProviderConfig | null;
  /** FUNDING_PROVIDERS (docs/operations.md "Funding providers"): dedicated accounts, callbacks, the reconciler. */
  funding_providers: FundingProviderEntry[];
  /**
   * The live upstreams, in the order of the default route: UPSTREAMS, or the one named "default" that
   * the PROVIDER_* settings describe (as before there were several), or none.
   */
  upstreams: UpstreamConfig[];
  production: boolean;
  /** One webhook delivery attempt's deadline (docs/decisions.md: 10 s). */
  webhook_timeout_ms: number;
  /** ACTORS_RESIDENT_MAX: account actors held in memory before idle ones are let go (engine/actor-cache.ts). */
  actors_resident_max: number;
  /** PORTED_NUMBERS_MAX: numbers the ported-number table holds (services/ported-numbers.ts). */
  ported_numbers_max: number;
  /** Writes are refused (503) when the store's disk has less free space than this. */
  store_free_bytes_min: number;
  /** Base URLs shown in the docs and the demo banner. */
  public_base_url: string | null;
  cluster: ClusterConfig | null;
  /** Dashboard sign-in bounds (docs/api.md "Dashboard and documentation"): what unauthenticated sign-ins may cost. */
  sign_in: SignInConfig;
  /** Transaction-PIN scrypt checks running at once, and waiting behind them, before 429. */
  pin_hash_running_max: number;
  pin_hash_waiting_max: number;
  /** REQUEST_BODIES_BYTES_MAX: request body bytes held at once across every request (front/request-body.ts). */
  request_bodies_bytes_max: number;
  /** Statement bounds (docs/operations.md "Nothing long on the event loop"): entries per statement, per PDF, builds at once. */
  statements: StatementLimits;
  /** The dashboard's rate limit (docs/operations.md "Dashboard rate limit"): token buckets per session and per account. */
  dashboard_rate: DashboardRateConfig;
}

export interface DashboardRateConfig {
  session_per_minute_max: number;
  session_burst_max: number;
  account_per_minute_max: number;
  account_burst_max: number;
}

export interface FundingBankConfig {
  bank_name: string;
  account_number: string;
  account_name: string;
}

/** Longest funding bank setting (a bank or account name). */
export const funding_bank_text_length_max = 100;

/** FUNDING_BANK_NAME, FUNDING_ACCOUNT_NUMBER and FUNDING_ACCOUNT_NAME: all three or none. */
function funding_bank_config(env: Record<string, string | undefined>): FundingBankConfig | null {
  const bank_name = (env.FUNDING_BANK_NAME ?? '').trim();
  const account_number = (env.FUNDING_ACCOUNT_NUMBER ?? '').trim();
  const account_name = (env.FUNDING_ACCOUNT_NAME ?? '').trim();
  if (bank_name === '' && account_number === '' && account_name === '') return null;
  if (bank_name === '' || account_number === '' || account_name === '') {
    throw new ConfigError('FUNDING_BANK_NAME, FUNDING_ACCOUNT_NUMBER and FUNDING_ACCOUNT_NAME go together: set all three or none');
  }
  // A NUBAN is 10 digits; other banks' numbers are allowed, digits only.
  if (!/^[0-9]{6,20}$/.test(account_number)) throw new ConfigError('FUNDING_ACCOUNT_NUMBER must be 6 to 20 digits (a NUBAN is 10)');
  for (const [name, value] of [['FUNDING_BANK_NAME', bank_name], ['FUNDING_ACCOUNT_NAME', account_name]] as const) {
    if (value.length > funding_bank_text_length_max || /[\u0000-\u001f\u007f]/.test(value)) throw new ConfigError(`${name} must be at most ${funding_bank_text_length_max} printable characters`);
  }
  return { bank_name, account_number, account_name };
}

/** The bounds of statements (docs/operations.md "Nothing long on the event loop"), each from its environment variable. */
export interface StatementLimits {
  entries_max: number;
  pdf_entries_max: number;
  builds_max: number;
}

export interface SignInConfig {
  /** Sign-in attempts per client address per minute (fixed windows, not scaled by TIME_SCALE). */
  address_per_minute_max: number;
  /** Sign-in attempts per second over all addresses: caps the scrypt work sign-ins can ask for. */
  global_per_second_max: number;
  /** Password scrypt checks running at once, and waiting behind them, before 429. */
  hash_running_max: number;
  hash_waiting_max: number;
}

export const default_cors_origins = [
  'https://app.billvend.ng',
  'https://business.billvend.ng',
  'https://docs.billvend.ng',
];

export class ConfigError extends Error {}

/** Reads --kebab-case flags into an environment-shaped map (flag --admin-port 9000 → ADMIN_PORT). */
export function flags_to_env(argv: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)).replaceAll('-', '_').toUpperCase();
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else value = '1';
    out[name] = value;
  }
  return out;
}

function port(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new ConfigError(`${name} must be a port number (0-65535), got "${text}"`);
  return Number(text);
}

function host(name: string, text: string | undefined, fallback: string): string {
  if (text === undefined || text === '') return fallback;
  if (isIP(text) === 0 && text !== 'localhost') throw new ConfigError(`${name} must be an IP address, got "${text}"`);
  return text;
}

function flag(name: string, text: string | undefined): boolean {
  if (text === undefined || text === '' || text === '0' || text === 'false') return false;
  if (text === '1' || text === 'true') return true;
  throw new ConfigError(`${name} must be 0 or 1, got "${text}"`);
}

function positive_integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new ConfigError(`${name} must be a positive integer, got "${text}"`);
  return Number(text);
}

function cluster_config(env: Record<string, string | undefined>): ClusterConfig | null {
  const urls = (env.CLUSTER_NATS_URL ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
  if (urls.length === 0) return null;
  for (const url of urls) {
    if (!/^(nats|tls):\/\/[^\s/]+$|^[^\s/:]+:\d{1,5}$/.test(url)) throw new ConfigError(`CLUSTER_NATS_URL entry "${url}" is not a NATS URL such as nats://10.0.0.1:4222`);
  }
  // Sealed secrets (webhook signing keys, reference codecs) are replicated as they are stored: every
  // node must open them with the same key, so a key generated per DATA_DIR cannot work here.
  if (!env.MASTER_KEY) throw new ConfigError('cluster mode (CLUSTER_NATS_URL) needs MASTER_KEY, set to the same value on every node');
  const node_name = env.NODE_NAME || hostname();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(node_name)) throw new ConfigError(`NODE_NAME must be 1-64 letters, digits, '.', '_' or '-', got "${node_name}"`);
  const lease_ms = positive_integer('CLUSTER_LEASE_MS', env.CLUSTER_LEASE_MS, 5000);
  if (lease_ms < 300) throw new ConfigError(`CLUSTER_LEASE_MS must be at least 300, got "${env.CLUSTER_LEASE_MS}"`);
  const replicas = positive_integer('CLUSTER_REPLICAS', env.CLUSTER_REPLICAS, 3);
  if (replicas > 5) throw new ConfigError(`CLUSTER_REPLICAS must be 1 to 5 (JetStream's limit), got "${env.CLUSTER_REPLICAS}"`);
  return {
    nats_urls: urls,
    node_name,
    lease_ms,
    replicas,
    snapshot_batches_max: positive_integer('CLUSTER_SNAPSHOT_BATCHES_MAX', env.CLUSTER_SNAPSHOT_BATCHES_MAX, 100_000),
    snapshot_interval_ms: positive_integer('CLUSTER_SNAPSHOT_INTERVAL_MS', env.CLUSTER_SNAPSHOT_INTERVAL_MS, 15 * 60_000),
    start_wait_ms_max: positive_integer('CLUSTER_START_WAIT_MS_MAX', env.CLUSTER_START_WAIT_MS_MAX, 60_000),
  };
}

const upstream_fields = new Set(['name', 'kind', 'base_url', 'api_key', 'secret_key', 'public_key', 'timeout_ms', 'callback_token']);

/**
 * UPSTREAMS: a JSON array of {name, kind, base_url, api_key?, secret_key?, public_key?, timeout_ms?}.
 * Checked whole at start; an error names the entry and the field, never a credential's value.
 */
/** Flutterwave answers 503 after 28 s of its own (developer.flutterwave.com/docs/error-timeouts): 28 s + 7 s margin. */
export const flutterwave_timeout_default_ms = 35_000;

export function upstreams_config(text: string): UpstreamConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('UPSTREAMS must be a JSON array such as [{"name":"vtpass","kind":"vtpass","base_url":"https://…","api_key":"…","secret_key":"…"}]');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new ConfigError('UPSTREAMS must be a non-empty JSON array of upstreams');
  if (parsed.length > upstreams_max) throw new ConfigError(`UPSTREAMS names ${parsed.length} upstreams; at most ${upstreams_max}`);
  const out: UpstreamConfig[] = [];
  for (const [i, entry] of parsed.entries()) {
    const where = `UPSTREAMS entry ${i + 1}`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${where} must be an object`);
    const e = entry as Record<string, unknown>;
    for (const field of Object.keys(e)) if (!upstream_fields.has(field)) throw new ConfigError(`${where} has an unknown field "${field.slice(0, 40)}"`);
    const text_field = (field: string, required: boolean): string => {
      const value = e[field];
      if (value === undefined && !required) return '';
      if (typeof value !== 'string' || (required && value === '')) throw new ConfigError(`${where}: ${field} must be a ${required ? 'non-empty ' : ''}string`);
      return value;
    };
    const name = text_field('name', true);
    if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(name)) throw new ConfigError(`${where}: name must be 1-32 lower-case letters, digits, '_' or '-', got "${name.slice(0, 40)}"`);
    if (out.some((u) => u.name === name)) throw new ConfigError(`${where}: the name "${name}" is used twice`);
    const kind = text_field('kind', true);
    if (!(upstream_kinds as readonly string[]).includes(kind)) throw new ConfigError(`${where} (${name}): kind must be one of ${upstream_kinds.join(', ')}, got "${kind.slice(0, 40)}"`);
    const base_url = text_field('base_url', true);
    if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(base_url)) throw new ConfigError(`${where} (${name}): base_url must be an http(s) URL`);
    // Flutterwave waits 28 s before its own 503 (docs/upstreams.md "Flutterwave timeout"): its default leaves a margin past that.
    const timeout = e.timeout_ms ?? (kind === 'flutterwave' ? flutterwave_timeout_default_ms : 15_000);
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 100) throw new ConfigError(`${where} (${name}): timeout_ms must be an integer ≥ 100`);
    const secret_key = text_field('secret_key', false);
    if (kind === 'flutterwave' && secret_key === '') throw new ConfigError(`${where} (${name}): a flutterwave upstream needs secret_key (its bearer token)`);
    const callback_token = text_field('callback_token', false);
    if (callback_token !== '' && kind !== 'vtpass') throw new ConfigError(`${where} (${name}): callback_token is for vtpass upstreams (their transaction-update callbacks)`);
    if (callback_token !== '' && !callback_token_pattern.test(callback_token)) throw new ConfigError(`${where} (${name}): callback_token must be 32-128 letters, digits, '_' or '-' (e.g. openssl rand -hex 32)`);
    out.push({
      name,
      kind: kind as UpstreamKind,
      base_url: base_url.replace(/\/+$/, ''),
      api_key: text_field('api_key', false),
      secret_key,
      public_key: text_field('public_key', false),
      timeout_ms: timeout,
      callback_token_sha256: callback_token === '' ? null : createHash('sha256').update(callback_token).digest('hex'),
    });
  }
  return out;
}

/** The funding providers' API shapes (src/services/funding/, docs/funding.md). */
export const funding_kinds = ['monnify', 'paystack', 'flutterwave'] as const;
export type FundingKindName = (typeof funding_kinds)[number];

/** One FUNDING_PROVIDERS entry; the same shape as services/funding's FundingProviderConfig. */
export interface FundingProviderEntry {
  name: string;
  kind: FundingKindName;
  base_url: string;
  api_key: string;
  secret_key: string;
  contract_code?: string;
  secret_hash?: string;
  timeout_ms: number;
}

/** Funding providers configured at once (each is asked on every reconcile and every account creation). */
export const funding_providers_max = 8;
const funding_provider_fields = new Set(['name', 'kind', 'base_url', 'api_key', 'secret_key', 'contract_code', 'secret_hash', 'timeout_ms']);

/**
 * FUNDING_PROVIDERS: a JSON array of {name, kind, base_url (the bare origin), api_key, secret_key,
 * contract_code (monnify), secret_hash (flutterwave), timeout_ms?}. Names are unique: they are in the
 * callback URL (/callbacks/funding/{name}) and on every account row.
 */
export function funding_providers_config(text: string): FundingProviderEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('FUNDING_PROVIDERS must be a JSON array such as [{"name":"monnify","kind":"monnify","base_url":"https://api.monnify.com","api_key":"…","secret_key":"…","contract_code":"…"}]');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('FUNDING_PROVIDERS must be a JSON array of funding providers');
  if (parsed.length > funding_providers_max) throw new ConfigError(`FUNDING_PROVIDERS names ${parsed.length} providers; at most ${funding_providers_max}`);
  const out: FundingProviderEntry[] = [];
  parsed.forEach((entry: unknown, i) => {
    const where = `FUNDING_PROVIDERS entry ${i + 1}`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${where} must be an object`);
    const e = entry as Record<string, unknown>;
    for (const field of Object.keys(e)) if (!funding_provider_fields.has(field)) throw new ConfigError(`${where} has an unknown field "${field.slice(0, 40)}"`);
    const text_field = (field: string, required: boolean): string => {
      const value = e[field] ?? '';
      if (typeof value !== 'string' || (required && value === '')) throw new ConfigError(`${where}: ${field} must be a ${required ? 'non-empty ' : ''}string`);
      return value;
    };
    const name = text_field('name', true);
    if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(name)) throw new ConfigError(`${where}: name must be 1-32 lower-case letters, digits, '_' or '-', got "${name.slice(0, 40)}"`);
    if (out.some((p) => p.name === name)) throw new ConfigError(`${where}: the name "${name}" is used twice`);
    const kind = text_field('kind', true);
    if (!(funding_kinds as readonly string[]).includes(kind)) throw new ConfigError(`${where} (${name}): kind must be one of ${funding_kinds.join(', ')}, got "${kind.slice(0, 40)}"`);
    const base_url = text_field('base_url', true);
    if (!/^https?:\/\/[^\s/?#]+\/?$/.test(base_url)) throw new ConfigError(`${where} (${name}): base_url must be the bare origin, such as https://api.monnify.com`);
    const api_key = text_field('api_key', kind !== 'paystack');
    const secret_key = text_field('secret_key', true);
    const contract_code = text_field('contract_code', false);
    const secret_hash = text_field('secret_hash', false);
    if (kind === 'monnify' && contract_code === '') throw new ConfigError(`${where} (${name}): a monnify provider needs contract_code (the contract code on the Monnify dashboard)`);
    if (kind !== 'monnify' && contract_code !== '') throw new ConfigError(`${where} (${name}): contract_code is for monnify providers`);
    if (kind === 'flutterwave' && secret_hash === '') throw new ConfigError(`${where} (${name}): a flutterwave provider needs secret_hash (the verif-hash set on the Flutterwave dashboard)`);
    if (kind !== 'flutterwave' && secret_hash !== '') throw new ConfigError(`${where} (${name}): secret_hash is for flutterwave providers`);
    const timeout = e.timeout_ms ?? 15_000;
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 100 || timeout > 120_000) throw new ConfigError(`${where} (${name}): timeout_ms must be an integer from 100 to 120000`);
    out.push({
      name,
      kind: kind as FundingKindName,
      base_url: base_url.replace(/\/+$/, ''),
      api_key,
      secret_key,
      ...(contract_code === '' ? {} : { contract_code }),
      ...(secret_hash === '' ? {} : { secret_hash }),
      timeout_ms: timeout,
    });
  });
  return out;
}

export function load_config(env: Record<string, string | undefined>): Config {
  const time_scale = env.TIME_SCALE === undefined || env.TIME_SCALE === '' ? 1 : Number(env.TIME_SCALE);
  if (!Number.isFinite(time_scale) || time_scale <= 0 || time_scale > 1000) {
    throw new ConfigError(`TIME_SCALE must be a positive number, got "${env.TIME_SCALE}"`);
  }
  const log_level = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(log_level)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const log_format = env.LOG_FORMAT || 'json';
  if (log_format !== 'json' && log_format !== 'pretty') throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  let demo: Config['demo'] = 'auto';
  if (env.DEMO !== undefined && env.DEMO !== '') demo = flag('DEMO', env.DEMO) ? 'on' : 'off';

  const cors_origins = env.CORS_ORIGINS === undefined
    ? default_cors_origins
    : env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter((o) => o !== '');
  for (const origin of cors_origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`CORS_ORIGINS entry "${origin}" is not an origin such as https://app.example.com`);
  }
  const trusted_proxies: CidrBlock[] = [];
  for (const text of (env.TRUSTED_PROXIES ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '')) {
    const block = parse_cidr(text);
    if (block === null) throw new ConfigError(`TRUSTED_PROXIES entry "${text}" is not an IP address or CIDR block`);
    trusted_proxies.push(block);
  }

  let provider: ProviderConfig | null = null;
  if (env.PROVIDER_BASE_URL) {
    const timeout_ms = env.PROVIDER_TIMEOUT_MS ? Number(env.PROVIDER_TIMEOUT_MS) : 15_000;
    if (!Number.isInteger(timeout_ms) || timeout_ms < 100) throw new ConfigError('PROVIDER_TIMEOUT_MS must be an integer ≥ 100');
    provider = {
      base_url: env.PROVIDER_BASE_URL.replace(/\/+$/, ''),
      api_key: env.PROVIDER_API_KEY ?? '',
      secret_key: env.PROVIDER_SECRET_KEY ?? '',
      public_key: env.PROVIDER_PUBLIC_KEY ?? '',
      timeout_ms,
    };
  }

  let upstreams: UpstreamConfig[] = provider === null ? [] : [{ name: 'default', kind: 'vtpass', ...provider }];
  if (env.UPSTREAMS !== undefined && env.UPSTREAMS.trim() !== '') {
    if (provider !== null) throw new ConfigError('set either UPSTREAMS or PROVIDER_BASE_URL (the single upstream of before), not both');
    upstreams = upstreams_config(env.UPSTREAMS);
  }

  return {
    port: port('PORT', env.PORT, 8080),
    host: host('HOST', env.HOST, '0.0.0.0'),
    admin_port: port('ADMIN_PORT', env.ADMIN_PORT, 8081),
    admin_host: host('ADMIN_HOST', env.ADMIN_HOST, '127.0.0.1'),
    admin_token: env.ADMIN_TOKEN || null,
    data_dir: env.DATA_DIR || 'data/store',
    log_level,
    log_format,
    time_scale,
    demo,
    cors_origins,
    trusted_proxies,
    webhook_allow_private_targets: flag('WEBHOOK_ALLOW_PRIVATE_TARGETS', env.WEBHOOK_ALLOW_PRIVATE_TARGETS),
    funding_webhook_secret: env.FUNDING_WEBHOOK_SECRET || null,
    funding_bank: funding_bank_config(env),
    funding_providers: env.FUNDING_PROVIDERS === undefined || env.FUNDING_PROVIDERS.trim() === '' ? [] : funding_providers_config(env.FUNDING_PROVIDERS),
    master_key: env.MASTER_KEY || null,
    provider,
    upstreams,
    production: env.NODE_ENV === 'production',
    webhook_timeout_ms: positive_integer('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
    actors_resident_max: positive_integer('ACTORS_RESIDENT_MAX', env.ACTORS_RESIDENT_MAX, actors_resident_max_default),
    ported_numbers_max: positive_integer('PORTED_NUMBERS_MAX', env.PORTED_NUMBERS_MAX, ported_numbers_max_default),
    store_free_bytes_min: positive_integer('STORE_FREE_BYTES_MIN', env.STORE_FREE_BYTES_MIN, 64 * 1024 * 1024),
    public_base_url: env.PUBLIC_BASE_URL || null,
    sign_in: {
      address_per_minute_max: positive_integer('SIGN_IN_ADDRESS_PER_MINUTE_MAX', env.SIGN_IN_ADDRESS_PER_MINUTE_MAX, 30),
      global_per_second_max: positive_integer('SIGN_IN_GLOBAL_PER_SECOND_MAX', env.SIGN_IN_GLOBAL_PER_SECOND_MAX, 10),
      hash_running_max: positive_integer('SIGN_IN_HASH_RUNNING_MAX', env.SIGN_IN_HASH_RUNNING_MAX, 1),
      hash_waiting_max: positive_integer('SIGN_IN_HASH_WAITING_MAX', env.SIGN_IN_HASH_WAITING_MAX, 16),
    },
    pin_hash_running_max: positive_integer('PIN_HASH_RUNNING_MAX', env.PIN_HASH_RUNNING_MAX, 2),
    pin_hash_waiting_max: positive_integer('PIN_HASH_WAITING_MAX', env.PIN_HASH_WAITING_MAX, 256),
    request_bodies_bytes_max: positive_integer('REQUEST_BODIES_BYTES_MAX', env.REQUEST_BODIES_BYTES_MAX, 64 * 1024 * 1024),
    statements: {
      entries_max: positive_integer('STATEMENT_ENTRIES_MAX', env.STATEMENT_ENTRIES_MAX, statement_entries_max),
      pdf_entries_max: positive_integer('STATEMENT_PDF_ENTRIES_MAX', env.STATEMENT_PDF_ENTRIES_MAX, statement_pdf_entries_max),
      builds_max: positive_integer('STATEMENT_BUILDS_MAX', env.STATEMENT_BUILDS_MAX, statement_builds_max),
    },
    dashboard_rate: {
      session_per_minute_max: positive_integer('DASHBOARD_SESSION_PER_MINUTE_MAX', env.DASHBOARD_SESSION_PER_MINUTE_MAX, 60),
      session_burst_max: positive_integer('DASHBOARD_SESSION_BURST_MAX', env.DASHBOARD_SESSION_BURST_MAX, 10),
      account_per_minute_max: positive_integer('DASHBOARD_ACCOUNT_PER_MINUTE_MAX', env.DASHBOARD_ACCOUNT_PER_MINUTE_MAX, 120),
      account_burst_max: positive_integer('DASHBOARD_ACCOUNT_BURST_MAX', env.DASHBOARD_ACCOUNT_BURST_MAX, 20),
    },
    cluster: cluster_config(env),
  };
}
