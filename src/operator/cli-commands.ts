// The command line (operations.md): `serve` and thin clients of the operator API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const usage = `usage: billvend <command> [options]

  serve [--port N --admin-port N --data-dir DIR ...]   run the server (the default command)
  account create --name N --email E --phone P --password W --kyc-level L [--tier T] [--pin 12345]
  account update <account_id> [--kyc-level L] [--tier T] [--daily-limit NGN|null]
  pin set <account_id> <pin>
  key create <account_id> --name N [--environment live|test] [--scopes a,b] [--ip-allowlist a,b]
             [--rate-limit-per-minute N] [--expires-at ISO]
  wallet credit <account_id> --environment live|test --amount NGN --reference REF [--description D]
  plan update <plan_id> [--enabled true|false] [--amount NGN]
  webhooks dead

Operator clients read ADMIN_TOKEN from the environment or DATA_DIR/admin-token, and reach the operator
API at ADMIN_HOST:ADMIN_PORT (default 127.0.0.1:8081).
`;

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  flags: Record<string, string>;
}

function parse(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) flags[name] = arg.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
      else flags[name] = 'true';
    } else positional.push(arg);
  }
  return { positional, flags };
}

function number_flag(flags: Record<string, string>, name: string): number | undefined {
  if (flags[name] === undefined) return undefined;
  const value = Number(flags[name]);
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number`);
  return value;
}

function list_flag(flags: Record<string, string>, name: string): string[] | undefined {
  return flags[name] === undefined ? undefined : flags[name].split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function require_flags(flags: Record<string, string>, names: string[]): void {
  const missing = names.filter((n) => flags[n] === undefined);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
}

function account_id(positional: string[], index: number): string {
  const id = positional[index];
  if (id === undefined || !/^[1-9]\d*$/.test(id)) throw new UsageError('an account id is required');
  return id;
}

function admin_token(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const path = join(process.env.DATA_DIR || 'data/store', 'admin-token');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new Error(`no ADMIN_TOKEN in the environment and cannot read ${path}`);
  }
}

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const host = process.env.ADMIN_HOST && process.env.ADMIN_HOST !== '0.0.0.0' ? process.env.ADMIN_HOST : '127.0.0.1';
  const port = process.env.ADMIN_PORT || '8081';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${admin_token()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`cannot reach the operator API at ${url}: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const text = await response.text();
  let parsed: { success?: boolean; data?: unknown; error?: { code: string; message: string; details?: { field: string; message: string }[] } };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the operator API answered ${response.status} with a body that is not JSON`);
  }
  if (!response.ok || parsed.success !== true) {
    const details = parsed.error?.details?.map((d) => `\n  ${d.field}: ${d.message}`).join('') ?? '';
    process.stderr.write(`billvend: ${parsed.error?.code ?? response.status}: ${parsed.error?.message ?? 'request failed'}${details}\n`);
    return 1;
  }
  process.stdout.write(JSON.stringify(parsed.data, null, 2) + '\n');
  return 0;
}

/** Runs a command; null means the process keeps running (serve). */
export async function run_cli(argv: readonly string[]): Promise<number | null> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'serve' || command.startsWith('--')) {
      const { serve } = await import('../main.js');
      await serve(command === 'serve' ? rest : argv);
      return null;
    }
    if (command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(usage);
      return 0;
    }
    const [sub, ...args] = rest;
    const { positional, flags } = parse(args);
    switch (`${command} ${sub}`) {
      case 'account create':
        require_flags(flags, ['name', 'email', 'phone', 'password', 'kyc-level']);
        return await call('POST', '/admin/accounts', {
          name: flags.name,
          email: flags.email,
          phone: flags.phone,
          password: flags.password,
          kyc_level: number_flag(flags, 'kyc-level'),
          tier: flags.tier,
          pin: flags.pin,
        });
      case 'account update': {
        const body: Record<string, unknown> = {};
        if (flags['kyc-level'] !== undefined) body.kyc_level = number_flag(flags, 'kyc-level');
        if (flags.tier !== undefined) body.tier = flags.tier;
        if (flags['daily-limit'] !== undefined) body.daily_limit = flags['daily-limit'] === 'null' ? null : number_flag(flags, 'daily-limit');
        return await call('PATCH', `/admin/accounts/${account_id(positional, 0)}`, body);
      }
      case 'pin set': {
        const pin = positional[1] ?? flags.pin;
        if (pin === undefined) throw new UsageError('a PIN is required');
        return await call('POST', `/admin/accounts/${account_id(positional, 0)}/pin`, { pin });
      }
      case 'key create':
        require_flags(flags, ['name']);
        return await call('POST', `/admin/accounts/${account_id(positional, 0)}/keys`, {
          name: flags.name,
          environment: flags.environment,
          scopes: list_flag(flags, 'scopes'),
          ip_allowlist: list_flag(flags, 'ip-allowlist'),
          rate_limit_per_minute: number_flag(flags, 'rate-limit-per-minute'),
          expires_at: flags['expires-at'],
        });
      case 'wallet credit':
        require_flags(flags, ['environment', 'amount', 'reference']);
        return await call('POST', `/admin/accounts/${account_id(positional, 0)}/wallet/credit`, {
          environment: flags.environment,
          amount: number_flag(flags, 'amount'),
          reference: flags.reference,
          description: flags.description,
        });
      case 'plan update': {
        const plan_id = positional[0];
        if (plan_id === undefined) throw new UsageError('a plan id is required');
        const body: Record<string, unknown> = {};
        if (flags.enabled !== undefined) {
          if (flags.enabled !== 'true' && flags.enabled !== 'false') throw new UsageError('--enabled must be true or false');
          body.enabled = flags.enabled === 'true';
        }
        if (flags.amount !== undefined) body.amount = number_flag(flags, 'amount');
        return await call('PATCH', `/admin/catalog/data-plans/${encodeURIComponent(plan_id)}`, body);
      }
      case 'webhooks dead':
        return await call('GET', '/admin/webhooks/dead');
      default:
        throw new UsageError(`unknown command "${argv.join(' ')}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`billvend: ${error.message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
}
