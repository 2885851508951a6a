// The command line (docs/operations.md "Command line"): `serve`, and one thin client command per operator
// route. Arguments are parsed with node:util parseArgs in strict mode; every command and group answers
// --help/-h on stdout with exit status 0; a mistake in the command line is exit status 2, a failed
// request exit status 1.
import { readFileSync } from 'node:fs';
import {
  UsageError, amount_value, boolean_value, choice_value, command_usage, id_value, integer_value, list_value, parse_command,
  type CommandSpec, type ParsedCommand,
} from './cli-args.js';
import { narrow_field_of } from '../services/pricing.js';
import type { ServiceType } from '../services/order.js';
import { call_operator, type OperatorRequest } from './cli-client.js';
import { flag_of, serve_arguments, serve_spec, serve_variables } from './cli-serve.js';
import { listen_spec, run_listen, run_trigger, trigger_spec } from './cli-listen.js';
import { render_tree } from './cli-tree.js';

interface OperatorCommand extends CommandSpec {
  request(parsed: ParsedCommand, usage: string): OperatorRequest;
}

const page_options = [
  { name: 'page', value: 'N', summary: 'page number, default 1' },
  { name: 'per-page', value: 'N', summary: 'items per page, 1 to 100, default 20' },
];

function query(pairs: [string, string | undefined][]): string {
  const params = new URLSearchParams();
  for (const [name, value] of pairs) if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}


/**
 * --rules airtime=300,airtime/glo=400: one rule per item. The service type picks the narrowing field;
 * the server validates the rest, so an unknown service type goes through and is refused there by name.
 */
function rules_value(text: string, usage: string): Record<string, unknown>[] {
  return (list_value(text) ?? []).map((item) => {
    const match = /^([a-z0-9_]+)(?:\/([A-Za-z0-9_-]+))?=(\d{1,5})$/.exec(item);
    if (match === null) throw new UsageError(`--rules items must read SERVICE[/NARROW]=BP, such as airtime/glo=400, got "${item}"`, usage);
    const [, service_type, narrow, bp] = match;
    const rule: Record<string, unknown> = { service_type, rate_bp: Number(bp) };
    // The field is the server's own choice for the type (services/pricing.ts), so a family added there is
    // narrowed right here too; an unknown type keeps `network` and is refused by name by the server.
    if (narrow !== undefined) rule[Object.hasOwn(narrow_field_of, service_type!) ? narrow_field_of[service_type as ServiceType] : 'network'] = narrow;
    return rule;
  });
}

/** --routes "airtime/mtn=a,b;tv=b": one PRODUCT=LIST per route, separated by ';'. */
function routes_value(text: string | undefined, usage: string): { product: string; upstreams: string[] }[] | undefined {
  if (text === undefined) return undefined;
  const out: { product: string; upstreams: string[] }[] = [];
  for (const part of text.split(';').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UsageError(`--routes entry "${part.slice(0, 64)}" must be PRODUCT=UPSTREAM,UPSTREAM`, usage);
    out.push({ product: part.slice(0, eq).trim(), upstreams: list_value(part.slice(eq + 1)) ?? [] });
  }
  return out;
}

const account_id = { name: 'account_id', summary: 'the account\'s id' };

/** One entry per operator route (src/operator/admin-routes.ts, catalog-routes.ts, server/serve-store.ts). */
const operator_commands: OperatorCommand[] = [
  {
    words: ['account', 'list'],
    summary: 'List accounts by id, or find the one with an email address.',
    positionals: [],
    options: [
      ...page_options,
      { name: 'email', value: 'EMAIL', summary: 'only the account with this email (any letter case)' },
      { name: 'parent', value: 'ID', summary: 'only the agents whose parent is this account' },
      { name: 'status', value: 'active|suspended|closed', summary: 'only the accounts with this status' },
    ],
    request: ({ values }, usage) => ({
      method: 'GET',
      path: `/admin/accounts${query([
        ['page', integer_value(values.page, 'page', usage)?.toString()],
        ['per_page', integer_value(values['per-page'], 'per-page', usage)?.toString()],
        ['email', values.email],
        ['parent_id', values.parent === undefined ? undefined : id_value(values.parent, 'parent', usage)],
        ['status', choice_value(values.status, 'status', ['active', 'suspended', 'closed'] as const, usage)],
      ])}`,
    }),
  },
  {
    words: ['account', 'show'],
    summary: 'Show an account with its wallets and active API keys (never their secrets).',
    positionals: [account_id],
    options: [],
    request: ({ positionals }, usage) => ({ method: 'GET', path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}` }),
  },
  {
    words: ['account', 'tree'],
    summary: 'Show an account and every agent below it: indented by level, with status and balances in naira.',
    positionals: [account_id],
    options: [
      { name: 'limit', value: 'N', summary: 'accounts shown at most, 1 to 1000, default 1000 (level by level)' },
      { name: 'json', value: '', summary: 'print the answer as JSON, as the other commands do', switch: true },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'GET',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}/tree${query([['limit', integer_value(values.limit, 'limit', usage)?.toString()]])}`,
      render: values.json === 'true' ? undefined : render_tree,
    }),
  },
  {
    words: ['account', 'create'],
    summary: 'Create an account; its holder signs in to the dashboard with the email and password.',
    positionals: [],
    options: [
      { name: 'name', value: 'NAME', summary: 'business name', required: true },
      { name: 'email', value: 'EMAIL', summary: 'sign-in email, unique in any letter case', required: true },
      { name: 'phone', value: 'PHONE', summary: 'Nigerian phone number, 0XXXXXXXXXX or +234XXXXXXXXXX', required: true },
      { name: 'password', value: 'PASSWORD', summary: 'dashboard password, 8 to 200 characters', required: true },
      { name: 'kyc-level', value: '0-3', summary: 'KYC level, which sets the default daily limit', required: true },
      { name: 'tier', value: 'TIER', summary: 'pricing tier, default standard' },
      { name: 'pin', value: 'PIN', summary: 'transaction PIN, 5 digits' },
    ],
    request: ({ values }, usage) => ({
      method: 'POST',
      path: '/admin/accounts',
      body: {
        name: values.name,
        email: values.email,
        phone: values.phone,
        password: values.password,
        kyc_level: integer_value(values['kyc-level'], 'kyc-level', usage),
        tier: values.tier,
        pin: values.pin,
      },
    }),
  },
  {
    words: ['account', 'update'],
    summary: 'Change an account\'s KYC level, tier or daily limit; suspend or reactivate it.',
    positionals: [account_id],
    options: [
      { name: 'kyc-level', value: '0-3', summary: 'KYC level' },
      { name: 'tier', value: 'TIER', summary: 'pricing tier' },
      { name: 'daily-limit', value: 'NGN|null', summary: 'daily purchase limit in NGN; null = the KYC level\'s' },
      { name: 'status', value: 'active|suspended', summary: 'suspend the account and every account below it, or reactivate it' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'PATCH',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}`,
      body: {
        kyc_level: integer_value(values['kyc-level'], 'kyc-level', usage),
        tier: values.tier,
        daily_limit: values['daily-limit'] === 'null' ? null : amount_value(values['daily-limit'], 'daily-limit', usage),
        status: choice_value(values.status, 'status', ['active', 'suspended'] as const, usage),
      },
    }),
  },
  {
    words: ['pin', 'set'],
    summary: 'Set an account\'s transaction PIN.',
    positionals: [account_id, { name: 'pin', summary: 'the new PIN, 5 digits' }],
    options: [],
    request: ({ positionals }, usage) => ({
      method: 'POST',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}/pin`,
      body: { pin: positionals[1] },
    }),
  },
  {
    words: ['key', 'create'],
    summary: 'Create an API key for an account; its secret is printed this once only.',
    positionals: [account_id],
    options: [
      { name: 'name', value: 'NAME', summary: 'a name for the key', required: true },
      { name: 'environment', value: 'live|test', summary: 'the wallet the key uses, default live' },
      { name: 'scopes', value: 'LIST', summary: 'comma-separated scopes, default *' },
      { name: 'ip-allowlist', value: 'LIST', summary: 'comma-separated addresses or CIDR blocks' },
      { name: 'rate-limit-per-minute', value: 'N', summary: 'requests per minute, default 60' },
      { name: 'expires-at', value: 'ISO', summary: 'expiry instant, ISO 8601' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'POST',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}/keys`,
      body: {
        name: values.name,
        environment: values.environment,
        scopes: list_value(values.scopes),
        ip_allowlist: list_value(values['ip-allowlist']),
        rate_limit_per_minute: integer_value(values['rate-limit-per-minute'], 'rate-limit-per-minute', usage),
        expires_at: values['expires-at'],
      },
    }),
  },
  {
    words: ['key', 'revoke'],
    summary: 'Revoke an account\'s API key, at once and irreversibly.',
    positionals: [account_id, { name: 'key_id', summary: 'the key\'s id (account show lists them)' }],
    options: [],
    request: ({ positionals }, usage) => ({
      method: 'DELETE',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}/keys/${id_value(positionals[1], 'key_id', usage)}`,
    }),
  },
  {
    words: ['wallet', 'credit'],
    summary: 'Credit a wallet; the same reference again credits nothing and prints the first credit.',
    positionals: [account_id],
    options: [
      { name: 'environment', value: 'live|test', summary: 'the wallet to credit', required: true },
      { name: 'amount', value: 'NGN', summary: 'the amount in NGN, at most 2 decimals', required: true },
      { name: 'reference', value: 'REF', summary: 'the funding reference, unique per wallet', required: true },
      { name: 'description', value: 'TEXT', summary: 'shown in the wallet history, default "Wallet funding"' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'POST',
      path: `/admin/accounts/${id_value(positionals[0], 'account_id', usage)}/wallet/credit`,
      body: {
        environment: values.environment,
        amount: amount_value(values.amount, 'amount', usage),
        reference: values.reference,
        description: values.description,
      },
    }),
  },
  {
    words: ['plan', 'update'],
    summary: 'Re-price, enable, disable or re-type a data plan, at once and across restarts.',
    positionals: [{ name: 'plan_id', summary: 'the plan\'s id, such as mtn-1gb-1d' }],
    options: [
      { name: 'enabled', value: 'true|false', summary: 'offer the plan or not' },
      { name: 'amount', value: 'NGN', summary: 'the new price in NGN' },
      { name: 'plan-type', value: 'sme|gifting|corporate|direct', summary: 'how the network provisions it (the server checks the value)' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'PATCH',
      path: `/admin/catalog/data-plans/${encodeURIComponent(positionals[0])}`,
      body: { enabled: boolean_value(values.enabled, 'enabled', usage), amount: amount_value(values.amount, 'amount', usage), plan_type: values['plan-type'] },
    }),
  },
  {
    words: ['product', 'update'],
    summary: 'Re-price, enable or disable an education product, internet plan, Showmax plan or TV package, at once and across restarts.',
    positionals: [
      { name: 'kind', summary: 'the list: education-products, internet-plans, showmax-plans or tv-packages' },
      { name: 'code', summary: 'the item\'s code, such as waec-result-checker' },
    ],
    options: [
      { name: 'enabled', value: 'true|false', summary: 'offer the item or not' },
      { name: 'amount', value: 'NGN', summary: 'the new price in NGN' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'PATCH',
      path: `/admin/catalog/${encodeURIComponent(positionals[0])}/${encodeURIComponent(positionals[1])}`,
      body: { enabled: boolean_value(values.enabled, 'enabled', usage), amount: amount_value(values.amount, 'amount', usage) },
    }),
  },
  {
    words: ['catalog', 'sync'],
    summary: 'Sync the catalog from VTpass\'s service variations now; prints what changed.',
    positionals: [],
    options: [],
    notes: 'New variations are added disabled (enable them with plan update or product update once priced); an item whose\nvariation vanished, or whose VTpass price is above ours, is disabled. The server also syncs at start and every 6 hours.',
    request: () => ({ method: 'POST', path: '/admin/catalog/sync' }),
  },
  {
    words: ['catalog', 'drift'],
    summary: 'Show the items out of step with VTpass after the last sync (new, vanished, price_above).',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/catalog/drift' }),
  },
  {
    words: ['pricing', 'list'],
    summary: 'List every tier\'s price rules (discount rates in basis points).',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/pricing' }),
  },
  {
    words: ['pricing', 'set'],
    summary: 'Replace a tier\'s price rules, effective for the next purchase and kept across restarts.',
    positionals: [{ name: 'tier', summary: 'the tier, such as standard or gold' }],
    options: [{ name: 'rules', value: 'RULES', summary: 'comma-separated SERVICE[/NARROW]=BP, such as airtime=300,airtime/glo=400', required: true }],
    notes: 'NARROW is a network (airtime, data), a disco (electricity) or a TV provider (tv); the most specific rule wins.\n'
      + 'BP is basis points: 100 = 1%. The server checks the rules (400 validation.failed names each problem).',
    request: ({ positionals, values }, usage) => ({
      method: 'PUT',
      path: `/admin/pricing/${encodeURIComponent(positionals[0])}`,
      body: { rules: rules_value(values.rules!, usage) },
    }),
  },
  {
    words: ['pricing', 'delete'],
    summary: 'Remove a tier\'s price rules: its accounts then pay face value.',
    positionals: [{ name: 'tier', summary: 'the tier' }],
    options: [],
    request: ({ positionals }) => ({ method: 'DELETE', path: `/admin/pricing/${encodeURIComponent(positionals[0])}` }),
  },
  {
    words: ['report', 'margin'],
    summary: 'Per day and service: face value sold, charged to resellers, their commission, the provider\'s and the margin.',
    positionals: [],
    options: [
      { name: 'from', value: 'YYYY-MM-DD', summary: 'first Africa/Lagos day', required: true },
      { name: 'to', value: 'YYYY-MM-DD', summary: 'last Africa/Lagos day (at most 366 days)', required: true },
      { name: 'environment', value: 'live|test', summary: 'default live' },
    ],
    request: ({ values }, usage) => ({
      method: 'GET',
      path: `/admin/reports/margin${query([
        ['from', values.from],
        ['to', values.to],
        ['environment', choice_value(values.environment, 'environment', ['live', 'test'] as const, usage)],
      ])}`,
    }),
  },
  {
    words: ['statements', 'show'],
    summary: 'The platform\'s statement of an Africa/Lagos day: every wallet of an environment (signed JSON).',
    positionals: [],
    options: [
      { name: 'date', value: 'YYYY-MM-DD', summary: 'the Africa/Lagos day, not in the future', required: true },
      { name: 'environment', value: 'live|test', summary: 'default live' },
    ],
    request: ({ values }, usage) => ({
      method: 'GET',
      path: `/admin/statements${query([
        ['date', values.date],
        ['environment', choice_value(values.environment, 'environment', ['live', 'test'] as const, usage)],
      ])}`,
    }),
  },
  {
    words: ['orders', 'review'],
    summary: 'List the orders without a provider answer for 24 hours, which wait for an operator decision.',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/orders/review' }),
  },
  {
    words: ['orders', 'resolve'],
    summary: 'Decide an open order: delivered, or failed and refunded to the wallet.',
    positionals: [{ name: 'reference', summary: 'the order\'s reference, BV-…' }],
    options: [{ name: 'outcome', value: 'delivered|failed', summary: 'the decision', required: true }],
    request: ({ positionals, values }, usage) => ({
      method: 'POST',
      path: `/admin/orders/${encodeURIComponent(positionals[0])}/resolve`,
      body: { outcome: choice_value(values.outcome, 'outcome', ['delivered', 'failed'] as const, usage) },
    }),
  },
  {
    words: ['funding', 'accounts'],
    summary: 'Create a reseller\'s dedicated bank accounts at every funding provider (as POST /v1/funding/accounts).',
    positionals: [account_id],
    options: [
      { name: 'bvn', value: 'BVN', summary: 'the reseller\'s BVN, 11 digits, where a provider requires one (sealed, never shown again)' },
      { name: 'nin', value: 'NIN', summary: 'the reseller\'s NIN, 11 digits, where a provider requires one (sealed, never shown again)' },
    ],
    request: ({ positionals, values }) => ({
      method: 'POST',
      path: `/admin/accounts/${encodeURIComponent(positionals[0])}/funding/accounts`,
      body: { ...(values.bvn === undefined ? {} : { bvn: values.bvn }), ...(values.nin === undefined ? {} : { nin: values.nin }) },
    }),
  },
  {
    words: ['funding', 'exceptions'],
    summary: 'List funding transfers not credited automatically (unknown account, disagreeing with the provider...).',
    positionals: [],
    options: [{ name: 'status', value: 'open|all', summary: 'default open' }],
    request: ({ values }, usage) => ({ method: 'GET', path: `/admin/funding/exceptions${query([['status', choice_value(values.status, 'status', ['open', 'all'] as const, usage)]])}` }),
  },
  {
    words: ['funding', 'resolve'],
    summary: 'Resolve a funding exception: credit it (once) or reject it.',
    positionals: [{ name: 'id', summary: 'the exception\'s id' }],
    options: [
      { name: 'action', value: 'credit|reject', summary: 'the decision', required: true },
      { name: 'account-id', value: 'ID', summary: 'the account to credit, when the transfer names none' },
    ],
    request: ({ positionals, values }, usage) => ({
      method: 'POST',
      path: `/admin/funding/exceptions/${encodeURIComponent(positionals[0])}/resolve`,
      body: {
        action: choice_value(values.action, 'action', ['credit', 'reject'] as const, usage),
        ...(values['account-id'] === undefined ? {} : { account_id: Number(values['account-id']) }),
      },
    }),
  },
  {
    words: ['funding', 'report'],
    summary: 'A day\'s live funding per provider: transfers credited, amount paid, fees, credited, exceptions.',
    positionals: [],
    options: [{ name: 'date', value: 'YYYY-MM-DD', summary: 'the Africa/Lagos day', required: true }],
    request: ({ values }) => ({ method: 'GET', path: `/admin/funding/report${query([['date', values.date]])}` }),
  },
  {
    words: ['funding', 'reconcile'],
    summary: 'Ask the funding providers for the last 48 hours of transfers now and credit what no callback brought.',
    positionals: [],
    options: [{ name: 'provider', value: 'NAME', summary: 'only this configured provider' }],
    request: ({ values }) => ({ method: 'POST', path: '/admin/funding/reconcile', body: values.provider === undefined ? {} : { provider: values.provider } }),
  },
  {
    words: ['routes', 'show'],
    summary: 'Show the upstream routes and each upstream\'s circuit.',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/routes' }),
  },
  {
    words: ['routes', 'set'],
    summary: 'Replace the upstream routes, at once and across restarts.',
    positionals: [],
    options: [
      { name: 'default', value: 'LIST', summary: 'comma-separated upstreams of every product without a route, in order', required: true },
      { name: 'routes', value: 'ROUTES', summary: 'PRODUCT=LIST;PRODUCT=LIST, such as "airtime/mtn=flw,vtpass;tv=vtpass"' },
    ],
    request: ({ values }, usage) => ({
      method: 'PUT',
      path: '/admin/routes',
      body: { default: list_value(values.default), routes: routes_value(values.routes, usage) },
    }),
  },
  {
    words: ['cluster', 'status'],
    summary: 'Cluster mode: this node, its role, the leader, and how far it has applied the replicated journal.',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/cluster' }),
  },
  {
    words: ['webhooks', 'dead'],
    summary: 'List dead webhook deliveries across accounts, newest first.',
    positionals: [],
    options: [],
    request: () => ({ method: 'GET', path: '/admin/webhooks/dead' }),
  },
];

const groups = [...new Set(operator_commands.map((c) => c.words[0]))];

function padded_rows(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

const usage = `usage: billvend <command> [options]

Commands:
${padded_rows([
  ['serve', 'run the server (the default command)'],
  ...operator_commands.map((c): [string, string] => [c.words.join(' '), c.summary]),
  ['listen', listen_spec.summary],
  ['trigger <kind>', trigger_spec.summary],
  ['help [command]', 'print this help, or a command\'s'],
])}

Options:
${padded_rows([
  ['-h, --help', 'print this help and exit'],
  ['--version', 'print the version and exit'],
])}

"billvend <command> --help" explains a command. The operator commands print JSON on stdout; they read
ADMIN_TOKEN from the environment or DATA_DIR/admin-token and reach the operator API at
ADMIN_HOST:ADMIN_PORT (default 127.0.0.1:8081). listen and trigger use the public API with an API key
instead (--key or BILLVEND_KEY). Exit status: 0 done, 1 refused or failed, 2 a mistake in the command line.
`;

function group_usage(group: string): string {
  const commands = operator_commands.filter((c) => c.words[0] === group);
  return `usage: billvend ${group} <${commands.map((c) => c.words[1]).join('|')}> [options]\n\n`
    + `${padded_rows(commands.map((c): [string, string] => [c.words.join(' '), c.summary]))}\n\n`
    + `"billvend ${group} <command> --help" explains a command.\n`;
}

function version(): string {
  // dist/operator/cli-commands.js → the package root, where package.json is in a clone and in an install.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The help for `help`, `--help` and `-h` with the words after them: the program's, a group's or a command's. */
function help_text(words: readonly string[]): string {
  if (words.length === 0) return usage;
  if (words[0] === 'serve' && words.length === 1) return command_usage(serve_spec);
  if (words[0] === 'listen' && words.length === 1) return command_usage(listen_spec);
  if (words[0] === 'trigger' && words.length === 1) return command_usage(trigger_spec);
  const command = operator_commands.find((c) => c.words.length === words.length && c.words.every((w, i) => w === words[i]));
  if (command !== undefined) return command_usage(command);
  if (words.length === 1 && groups.includes(words[0])) return group_usage(words[0]);
  throw new UsageError(`no command "${words.join(' ')}"`, usage);
}

function is_help(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h';
}

/** Starts the server with its command-line arguments: src/main.ts's serve, passed in by src/cli.ts. */
export type ServeCommand = (argv: readonly string[]) => Promise<void>;

/** Runs a command; null means the process keeps running (serve). */
export async function run_cli(argv: readonly string[], serve: ServeCommand): Promise<number | null> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined || first === 'serve') {
      const parsed = parse_command(serve_spec, rest);
      if (parsed.help) {
        process.stdout.write(command_usage(serve_spec));
        return 0;
      }
      await serve(serve_arguments(parsed.values));
      return null;
    }
    if (first === 'help' || is_help(first)) {
      process.stdout.write(help_text(rest.filter((word) => !is_help(word))));
      return 0;
    }
    if (first === '--version') {
      if (rest.length > 0) throw new UsageError(`--version takes no arguments, got "${rest[0]}"`, usage);
      process.stdout.write(`${version()}\n`);
      return 0;
    }
    if (first.startsWith('-')) {
      // Before, any first flag started a server; say where a server setting goes now.
      const name = first.slice(2).split('=')[0];
      const is_setting = serve_variables.some((v) => flag_of(v.variable) === name);
      throw new UsageError(`unknown option "${first}"${is_setting ? `; server settings go after "serve": billvend serve ${argv.join(' ')}` : ''}`, usage);
    }
    if (first === 'listen') return await run_listen(rest);
    // `accounts tree 2` reads as naturally as `account tree 2`: the plural names the same group.
    if (first === 'accounts') return await run_cli(['account', ...rest], serve);
    if (first === 'trigger') return await run_trigger(rest);
    if (!groups.includes(first)) throw new UsageError(`unknown command "${first}"`, usage);
    const [second, ...args] = rest;
    if (is_help(second)) {
      process.stdout.write(group_usage(first));
      return 0;
    }
    if (second === undefined) throw new UsageError(`"${first}" needs a command`, group_usage(first));
    const command = operator_commands.find((c) => c.words[0] === first && c.words[1] === second);
    if (command === undefined) throw new UsageError(`unknown command "${first} ${second}"`, group_usage(first));
    const parsed = parse_command(command, args);
    if (parsed.help) {
      process.stdout.write(command_usage(command));
      return 0;
    }
    return await call_operator(command.request(parsed, command_usage(command)));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`billvend: ${error.message}\n\n${error.usage}`);
      return 2;
    }
    throw error;
  }
}
