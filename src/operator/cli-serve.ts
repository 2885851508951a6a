// `billvend serve`: its flags are the --kebab-case forms of the configuration variables that
// src/config.ts reads (`--admin-port 9000` is ADMIN_PORT=9000). A flag that is not one of them is
// refused, so that a typo such as --data-directory cannot start a server on the default store.
import type { CommandSpec, OptionSpec } from './cli-args.js';

interface ServeVariable {
  variable: string;
  value: string;
  summary: string;
  /** A 0/1 setting: a bare flag means 1. */
  switch?: boolean;
}

/** Every variable load_config reads; test/cli.test.ts checks this list against src/config.ts. */
export const serve_variables: readonly ServeVariable[] = [
  { variable: 'PORT', value: 'N', summary: 'public API port (0 = any free port), default 8080' },
  { variable: 'HOST', value: 'IP', summary: 'public bind address, default 0.0.0.0' },
  { variable: 'ADMIN_PORT', value: 'N', summary: 'operator API port, default 8081' },
  { variable: 'ADMIN_HOST', value: 'IP', summary: 'operator bind address, default 127.0.0.1' },
  { variable: 'ADMIN_TOKEN', value: 'TOKEN', summary: 'operator bearer token, default generated into DATA_DIR/admin-token' },
  { variable: 'DATA_DIR', value: 'DIR', summary: 'the store, default data/store' },
  { variable: 'LOG_LEVEL', value: 'LEVEL', summary: 'fatal, error, warn, info (default), debug, trace or silent' },
  { variable: 'LOG_FORMAT', value: 'FORMAT', summary: 'json (default: one JSON line each) or pretty (coloured lines for a terminal)' },
  { variable: 'TIME_SCALE', value: 'X', summary: 'multiplies every scheduled delay, default 1' },
  { variable: 'DEMO', value: '0|1', summary: 'seed the demo account (default: when the store is empty)', switch: true },
  { variable: 'CORS_ORIGINS', value: 'LIST', summary: 'comma-separated allowed origins' },
  { variable: 'TRUSTED_PROXIES', value: 'LIST', summary: 'comma-separated addresses or CIDR blocks whose X-Forwarded-For is believed' },
  { variable: 'WEBHOOK_ALLOW_PRIVATE_TARGETS', value: '0|1', summary: 'let webhook URLs point at private addresses, default 0', switch: true },
  { variable: 'WEBHOOK_TIMEOUT_MS', value: 'MS', summary: 'one webhook attempt, default 10000' },
  { variable: 'FUNDING_WEBHOOK_SECRET', value: 'SECRET', summary: 'HMAC secret of bank funding notifications' },
  { variable: 'FUNDING_PROVIDERS', value: 'JSON', summary: 'funding providers for dedicated bank accounts (docs/operations.md "Funding providers")' },
  { variable: 'FUNDING_BANK_NAME', value: 'NAME', summary: 'bank of the account resellers pay into, shown on the dashboard\'s Funding page' },
  { variable: 'FUNDING_ACCOUNT_NUMBER', value: 'DIGITS', summary: 'that account\'s number (with FUNDING_BANK_NAME and FUNDING_ACCOUNT_NAME)' },
  { variable: 'FUNDING_ACCOUNT_NAME', value: 'NAME', summary: 'that account\'s name' },
  { variable: 'MASTER_KEY', value: 'KEY', summary: '32 bytes (hex or base64) sealing stored secrets' },
  { variable: 'PUBLIC_BASE_URL', value: 'URL', summary: 'base URL shown in the OpenAPI document and the demo banner' },
  { variable: 'NODE_ENV', value: 'ENV', summary: '"production" buffers log writes' },
  { variable: 'PROVIDER_BASE_URL', value: 'URL', summary: 'the upstream aggregator of live purchases' },
  { variable: 'PROVIDER_API_KEY', value: 'KEY', summary: 'the aggregator\'s API key' },
  { variable: 'PROVIDER_SECRET_KEY', value: 'KEY', summary: 'the aggregator\'s secret key' },
  { variable: 'PROVIDER_PUBLIC_KEY', value: 'KEY', summary: 'the aggregator\'s public key' },
  { variable: 'PROVIDER_TIMEOUT_MS', value: 'MS', summary: 'one call to the aggregator, default 15000' },
  { variable: 'UPSTREAMS', value: 'JSON', summary: 'several live upstreams: a JSON array of {name, kind (vtpass|flutterwave), base_url, api_key, secret_key, timeout_ms}' },
  { variable: 'STORE_FREE_BYTES_MIN', value: 'BYTES', summary: 'below this free space on the store\'s disk, writes answer 503' },
  { variable: 'SIGN_IN_ADDRESS_PER_MINUTE_MAX', value: 'N', summary: 'dashboard sign-in attempts per client address per minute, default 30' },
  { variable: 'SIGN_IN_GLOBAL_PER_SECOND_MAX', value: 'N', summary: 'dashboard sign-in attempts per second over all addresses, default 10' },
  { variable: 'SIGN_IN_HASH_RUNNING_MAX', value: 'N', summary: 'password scrypt checks running at once, default 1' },
  { variable: 'SIGN_IN_HASH_WAITING_MAX', value: 'N', summary: 'password checks waiting behind them before 429, default 16' },
  { variable: 'PIN_HASH_RUNNING_MAX', value: 'N', summary: 'transaction-PIN scrypt checks running at once, default 2' },
  { variable: 'PIN_HASH_WAITING_MAX', value: 'N', summary: 'PIN checks waiting behind them before 429, default 256' },
  { variable: 'STATEMENT_ENTRIES_MAX', value: 'N', summary: 'wallet entries one statement holds, default 100000; past it 422 statement.too_large' },
  { variable: 'STATEMENT_PDF_ENTRIES_MAX', value: 'N', summary: 'wallet entries one PDF statement holds, default 20000' },
  { variable: 'STATEMENT_BUILDS_MAX', value: 'N', summary: 'statements built at once, default 4; past it 429' },
  { variable: 'REQUEST_BODIES_BYTES_MAX', value: 'BYTES', summary: 'request body bytes held at once across requests; past it 503, default 67108864 (64 MiB)' },
  { variable: 'DASHBOARD_SESSION_PER_MINUTE_MAX', value: 'N', summary: 'dashboard changes and exports per minute per session, default 60' },
  { variable: 'DASHBOARD_SESSION_BURST_MAX', value: 'N', summary: 'of them at once per session, default 10' },
  { variable: 'DASHBOARD_ACCOUNT_PER_MINUTE_MAX', value: 'N', summary: 'dashboard changes and exports per minute per account, default 120' },
  { variable: 'DASHBOARD_ACCOUNT_BURST_MAX', value: 'N', summary: 'of them at once per account, default 20' },
  { variable: 'ACTORS_RESIDENT_MAX', value: 'N', summary: 'account actors kept in memory before idle ones are let go, default 100000' },
  { variable: 'PORTED_NUMBERS_MAX', value: 'N', summary: 'numbers the ported-number table learns from live deliveries, default 4000000' },
  { variable: 'CLUSTER_NATS_URL', value: 'URLS', summary: 'comma-separated NATS URLs: cluster mode (unset: a single node)' },
  { variable: 'NODE_NAME', value: 'NAME', summary: 'this node\'s name in the cluster, default the host name' },
  { variable: 'CLUSTER_LEASE_MS', value: 'MS', summary: 'the leader\'s lease, default 5000' },
  { variable: 'CLUSTER_REPLICAS', value: 'N', summary: 'JetStream copies of the journal, lease and snapshots, default 3' },
  { variable: 'CLUSTER_SNAPSHOT_BATCHES_MAX', value: 'N', summary: 'snapshot the store after this many batches, default 100000' },
  { variable: 'CLUSTER_SNAPSHOT_INTERVAL_MS', value: 'MS', summary: 'or after this long, default 900000' },
  { variable: 'CLUSTER_START_WAIT_MS_MAX', value: 'MS', summary: 'how long start-up waits for a JetStream quorum before exit 1, default 60000' },
];

export function flag_of(variable: string): string {
  return variable.toLowerCase().replaceAll('_', '-');
}

export const serve_spec: CommandSpec = {
  words: ['serve'],
  summary: 'Run the server: the public API, the dashboard and the operator API (the default command).',
  positionals: [],
  options: serve_variables.map((v): OptionSpec => ({ name: flag_of(v.variable), value: v.value, summary: v.summary, bare_means_one: v.switch === true })),
  notes: 'Each flag is also an environment variable (--admin-port 9000 is ADMIN_PORT=9000); a flag wins over\n'
    + 'the environment. Prefer the environment for secrets: flags are visible to other users in the process list.',
};

/** The parsed flags, as the `--flag=value` arguments serve() reads with flags_to_env. */
export function serve_arguments(values: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const option of serve_spec.options) {
    const value = values[option.name];
    if (value !== undefined) out.push(`--${option.name}=${value}`);
  }
  return out;
}
