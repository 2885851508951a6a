// GET /v1/statements and GET /v1/statements/public-key (docs/api.md "Statements"): a wallet's Africa/Lagos
// day as JSON, CSV or PDF, signed with the platform's Ed25519 key over the exact bytes of the body.
import Type from 'typebox';
import type { Deps } from '../deps.js';
import type { RequestContext, RouteDef } from '../route.js';
import { error_reply, success_reply, type Reply } from '../../lib/reply.js';
import { query_params } from '../request-helpers.js';
import { api_error, invalid, type ApiError } from '../../errors.js';
import { lagos_day, parse_date_days } from '../../lib/time-format.js';
import type { Environment } from '../../engine/records.js';
import type { OrderDesk } from '../../services/order-desk.js';
import type { StatementSigner } from '../../services/statement-key.js';
import { account_statement, day_text, platform_statement, type PlatformStatement, type StatementData } from '../../services/statements.js';
import { statement_builds_max, statement_entries_max, statement_pdf_entries_max, type StatementLimits } from '../../config.js';
import { statement_csv, statement_json, statement_pdf, totals_view, type StatementFormat } from '../../services/statement-formats.js';
import { iso_us } from '../../lib/time-format.js';
import { kobo_to_naira } from '../../lib/money.js';
import { StatementView, StatementPublicKey } from '../../schemas/statement-schemas.js';
import { csv_content_type } from '../../lib/csv.js';

export function next_turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Statements being built at once in the process (limits.builds_max, STATEMENT_BUILDS_MAX): each holds its
 * day's lines and its body until sent, so their number is bounded; past it the answer is 429 with
 * Retry-After 1. It also carries the other bounds of a statement, the entries it may hold.
 */
export class StatementBuilds {
  running = 0;
  /** The store's signing key, set once the store is recovered (server/serve-store.ts); until then statements answer 503. */
  signer: StatementSigner | null = null;
  readonly limits: StatementLimits;
  constructor(limits: Partial<StatementLimits> = {}) {
    this.limits = { entries_max: statement_entries_max, pdf_entries_max: statement_pdf_entries_max, builds_max: statement_builds_max, ...limits };
  }
  /** Most entries a statement in this format holds. */
  entries_max(format: StatementFormat): number {
    return format === 'pdf' ? this.limits.pdf_entries_max : this.limits.entries_max;
  }
  async run<T>(job: (signer: StatementSigner) => Promise<T>): Promise<T | 'busy' | 'starting'> {
    const signer = this.signer;
    if (signer === null) return 'starting';
    if (this.running >= this.limits.builds_max) return 'busy';
    this.running++;
    try {
      return await job(signer);
    } finally {
      this.running--;
    }
  }
}

export const statement_formats: readonly StatementFormat[] = ['json', 'csv', 'pdf'];

/** The date, format and environment of a statement request: the date a Lagos day neither in the future nor before `earliest_day`. */
export function parse_statement_query(params: URLSearchParams, now_ms: number, earliest_day: number, earliest_why: string, key_environment: Environment | null): { day: number; format: StatementFormat; environment: Environment } | ApiError {
  const date = params.get('date');
  if (date === null || date === '') return invalid('date', 'is required: a date YYYY-MM-DD (an Africa/Lagos day)');
  const day = parse_date_days(date);
  if (day === null) return invalid('date', 'must be a date YYYY-MM-DD that exists (an Africa/Lagos day)');
  const today = lagos_day(now_ms);
  if (day > today) return invalid('date', `must not be in the future (today in Africa/Lagos is ${day_text(today)})`);
  if (day < earliest_day) return invalid('date', `must not be before ${day_text(earliest_day)} (${earliest_why})`);
  const format = params.get('format') ?? 'json';
  if (!statement_formats.includes(format as StatementFormat)) return invalid('format', 'must be json, csv or pdf');
  const environment = params.get('environment');
  if (environment !== null && environment !== 'live' && environment !== 'test') return invalid('environment', 'must be live or test');
  if (key_environment !== null && environment !== null && environment !== key_environment) {
    return invalid('environment', `must be the key's environment (${key_environment}): a ${key_environment} key reads the ${key_environment} wallet's statements only`);
  }
  return { day, format: format as StatementFormat, environment: (environment ?? key_environment ?? 'live') as Environment };
}

/** The signed reply of a statement in the format asked for. */
export async function statement_reply(data: StatementData, format: StatementFormat, request_id: string, signer: StatementSigner, name: string): Promise<Reply> {
  let body: Buffer;
  let content_type: string | undefined;
  const headers: [string, string][] = [];
  if (format === 'json') {
    body = await statement_json(data, request_id, next_turn);
  } else if (format === 'csv') {
    body = await statement_csv(data, next_turn);
    content_type = csv_content_type;
    headers.push(['Content-Disposition', `attachment; filename="${name}.csv"`]);
  } else {
    body = await statement_pdf(data, next_turn);
    content_type = 'application/pdf';
    headers.push(['Content-Disposition', `inline; filename="${name}.pdf"`]);
  }
  // The JSON envelope's headers already say no-store; a raw body brings its own.
  if (content_type !== undefined) headers.push(['Cache-Control', 'no-store']);
  headers.push(signer.header(body));
  return content_type === undefined ? { status: 200, body, headers } : { status: 200, body, headers, content_type };
}

export function too_large(count: number, format: StatementFormat, max: number): ApiError {
  return api_error('statement.too_large', `This day has ${count} wallet entries; a ${format} statement holds at most ${max}${format === 'pdf' ? ': ask for format=json or csv' : ''}.`, { extra: { entries: count, entries_max: max } });
}

function starting(): ApiError {
  return api_error('service.unavailable', 'The server is starting; retry shortly.', { headers: { 'Retry-After': '1' } });
}

export function busy(builds_max: number): ApiError {
  return api_error('rate_limit.exceeded', `At most ${builds_max} statements are built at once; retry in a second.`, { headers: { 'Retry-After': '1' } });
}

export function statement_routes(deps: Deps, desk: OrderDesk, builds: StatementBuilds): RouteDef[] {
  const format_doc = { schema: Type.Enum(['json', 'csv', 'pdf']), description: 'json (default, the envelope), csv (one table) or pdf; each signed' };
  return [
    {
      method: 'get',
      path: '/v1/statements',
      auth: 'api_key',
      scope: 'wallet:read',
      doc: {
        summary: 'A daily statement of the key\'s wallet: one Africa/Lagos day, signed',
        description: `Opening and closing balance, every wallet entry of the day (credits, debits, reversals: the refunds; each debit with the commission it netted) and totals by entry type and by service. Today's is provisional (final false). JSON by default, CSV or PDF with format; every body is signed: Billvend-Signature: ed25519=<base64> over its exact bytes, verified with GET /v1/statements/public-key. date is required, not in the future, not before the account's first day; a day of more than ${builds.limits.entries_max} entries (PDF ${builds.limits.pdf_entries_max}) is 422 statement.too_large; at most ${builds.limits.builds_max} statements are built at once in the server (429 rate_limit.exceeded past it).`,
        tags: ['Wallet'],
        response: StatementView,
        alternatives: ['text/csv', 'application/pdf'],
        response_headers: { 'Billvend-Signature': 'ed25519= and the base64 Ed25519 signature of the exact body bytes, by the key of GET /v1/statements/public-key' },
        query: {
          date: { schema: Type.String({ format: 'date' }), description: 'the Africa/Lagos day, YYYY-MM-DD (required)', required: true },
          format: format_doc,
          environment: { schema: Type.Enum(['live', 'test']), description: 'the key\'s environment (the default); the other one is 400 validation.failed' },
        },
        errors: ['validation.failed', 'statement.too_large', 'service.unavailable'],
      },
      handler: async (ctx: RequestContext) => {
        const actor = ctx.actor!;
        const now_ms = deps.clock.now_ms();
        const query = parse_statement_query(query_params(ctx), now_ms, lagos_day(Math.floor(actor.account.created_us / 1000)), 'the day the account was opened', ctx.environment);
        if ('code' in query) return error_reply(ctx.request_id, query);
        // A snapshot as of the request's arrival: entries staged later are not in the store yet.
        const total = actor.wallets[query.environment].entries_count;
        await actor.read_settled();
        const built = await builds.run(async (signer) => {
          const max = builds.entries_max(query.format);
          const data = await account_statement({
            store: deps.engine.store, account_id: actor.id, account_name: actor.account.name, environment: query.environment, total, day: query.day,
            now_us: deps.clock.now_us(), find_order: (reference) => desk.find(reference), next_turn, gone: () => ctx.aborted,
          }, max);
          if (data === null) return null;
          if ('too_many' in data) return error_reply(ctx.request_id, too_large(data.too_many, query.format, max));
          return statement_reply(data, query.format, ctx.request_id, signer, `billvend-${query.environment}-statement-${data.date}`);
        });
        if (built === 'busy') return error_reply(ctx.request_id, busy(builds.limits.builds_max));
        if (built === 'starting') return error_reply(ctx.request_id, starting());
        // The client went away: nothing is sent (the front end checks ctx.aborted).
        return built ?? error_reply(ctx.request_id, api_error('internal.error', 'The client went away.'));
      },
    },
    {
      method: 'get',
      path: '/v1/statements/public-key',
      auth: 'none',
      doc: {
        summary: 'The public key that verifies statements (Ed25519, SPKI PEM)',
        description: 'No key needed: an accountant fetches it once and verifies statements offline (docs: "Statements").',
        tags: ['Wallet'],
        response: StatementPublicKey,
        errors: ['service.unavailable'],
      },
      handler: (ctx) => builds.signer === null
        ? error_reply(ctx.request_id, starting())
        : success_reply(ctx.request_id, 200, { algorithm: 'ed25519', public_key_pem: builds.signer.public_key_pem }, undefined, [['Cache-Control', 'public, max-age=3600']]),
    },
  ];
}

/** GET /admin/statements (docs/operations.md "Statements"): the platform's day over every wallet of an environment, signed. */
export function statement_admin_routes(deps: Deps, desk: OrderDesk, builds: StatementBuilds): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/statements',
      auth: 'operator',
      doc: {
        summary: 'The platform\'s statement of an Africa/Lagos day: every wallet of an environment, signed like a reseller\'s',
        tags: ['Operator'],
        query: {
          date: { schema: Type.String({ format: 'date' }), description: 'the Africa/Lagos day, YYYY-MM-DD (required)', required: true },
          environment: { schema: Type.Enum(['live', 'test']), description: 'live (default) or test' },
          format: { schema: Type.Enum(['json', 'csv', 'pdf']), description: 'json (default), csv or pdf' },
        },
        errors: ['validation.failed', 'rate_limit.exceeded', 'service.unavailable'],
      },
      handler: async (ctx) => {
        const now_ms = deps.clock.now_ms();
        // No account bounds the look-back here: the day 2020-01-01 is before any billvend store.
        const query = parse_statement_query(query_params(ctx), now_ms, parse_date_days('2020-01-01')!, 'no statement is kept before it', null);
        if ('code' in query) return error_reply(ctx.request_id, query);
        await deps.engine.journal.durable();
        const built = await builds.run(async (signer) => {
          const data = await platform_statement(deps.engine.store, query.environment, query.day, deps.clock.now_us(), (reference) => desk.find(reference), next_turn, () => ctx.aborted);
          if (data === null) return null;
          return platform_reply(data, query.format, ctx.request_id, signer);
        });
        if (built === 'busy') return error_reply(ctx.request_id, busy(builds.limits.builds_max));
        if (built === 'starting') return error_reply(ctx.request_id, starting());
        return built ?? error_reply(ctx.request_id, api_error('internal.error', 'The client went away.'));
      },
    },
  ];
}

/** The platform statement: JSON with a row per active account, CSV and PDF through the account formats' totals. */
async function platform_reply(data: PlatformStatement, format: StatementFormat, request_id: string, signer: StatementSigner): Promise<Reply> {
  if (format !== 'json') return statement_reply(data, format, request_id, signer, `billvend-${data.environment}-platform-statement-${data.date}`);
  const body = Buffer.from(JSON.stringify({
    success: true,
    data: {
      environment: data.environment,
      date: data.date,
      time_zone: 'Africa/Lagos',
      from: iso_us(data.from_us),
      to: iso_us(data.to_us),
      final: data.final,
      generated_at: iso_us(data.generated_us),
      currency: 'NGN',
      wallets: data.scope.kind === 'platform' ? data.scope.accounts : 0,
      opening_balance: kobo_to_naira(data.opening_kobo),
      closing_balance: kobo_to_naira(data.closing_kobo),
      accounts: data.accounts.map((row) => ({
        account_id: row.account_id,
        opening_balance: kobo_to_naira(row.opening_kobo),
        closing_balance: kobo_to_naira(row.closing_kobo),
        ...totals_view({ by_type: row.by_type, by_service: [] }).by_type,
      })),
      accounts_truncated: data.accounts_truncated,
      totals: totals_view(data),
    },
    request_id,
  }), 'utf8');
  return { status: 200, body, headers: [signer.header(body)] };
}
