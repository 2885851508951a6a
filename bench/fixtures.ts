// What a scenario needs before the load starts, made the way an operator and a reseller would:
// accounts, keys and wallet credits through the operator API (README "Operator API"), catalog
// look-ups and priming purchases through the public API. Nothing here reaches into the store.

/** The operator API caps one credit at 100,000,000 NGN (README "Limits"); bigger fundings are split. */
export const credit_naira_max = 100_000_000;
/** The highest per-key rate limit the operator may set: the bench must not measure 429s. */
export const rate_limit_per_minute_max = 1_000_000;
/** Every bench account's daily limit (NGN): the operator maximum, as a large reseller would have. */
export const daily_limit_naira = 100_000_000;
/** The PIN set at account creation and sent with every purchase. */
export const bench_pin = '12345';
/** Every bench account's dashboard password. */
export const bench_password = 'bench password';
/**
 * Operator requests in flight while setting up. Account creation runs two scrypt hashes (~50 ms of
 * CPU each) on libuv's 4-thread pool: 8 in flight keeps the pool busy without queueing hundreds.
 */
export const setup_in_flight_max = 8;

/** An account with a funded test wallet and one test key. */
export interface Reseller {
  account_id: number;
  /** The whole Authorization header value, built once. */
  authorization: string;
  /** The dashboard sign-in email (the password is bench_password); absent for the baselines' made-up reseller. */
  email?: string;
}

export interface ApiAnswer {
  status: number;
  /** The parsed JSON answer, read with optional chaining and checked where it is used. */
  body: any;
}

async function call(base_url: string, method: string, path: string, authorization: string, body?: unknown, extra_headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { authorization, ...extra_headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base_url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** A GET or POST on the public API with a reseller's key. */
export function api(base_url: string, reseller: Reseller, method: 'GET' | 'POST', path: string, body?: unknown, extra_headers?: Record<string, string>): Promise<ApiAnswer> {
  return call(base_url, method, path, reseller.authorization, body, extra_headers);
}

/** Runs fn over items with at most in_flight_max calls pending; results in the items' order. */
export async function map_bounded<T, R>(items: readonly T[], in_flight_max: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(in_flight_max, items.length) }, lane));
  return results;
}

export interface JournalTotals {
  commits: number;
  changes: number;
  duration_ms: number;
}

export class OperatorClient {
  private readonly authorization: string;

  constructor(private readonly admin_url: string, admin_token: string) {
    this.authorization = `Bearer ${admin_token}`;
  }

  private async expect(method: string, path: string, body: unknown, status: number): Promise<any> {
    const answer = await call(this.admin_url, method, path, this.authorization, body);
    if (answer.status !== status) throw new Error(`operator ${method} ${path}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  }

  /** The operator's /metrics as Prometheus text, labelled series included. */
  async metrics_text(): Promise<string> {
    const answer = await fetch(`${this.admin_url}/metrics`, { headers: { authorization: this.authorization } });
    if (answer.status !== 200) throw new Error(`operator GET /metrics: expected 200, got ${answer.status}`);
    return answer.text();
  }

  /** The operator's /metrics as numbers by series name (series without labels only). */
  async metrics(): Promise<Map<string, number>> {
    const answer = await fetch(`${this.admin_url}/metrics`, { headers: { authorization: this.authorization } });
    if (answer.status !== 200) throw new Error(`operator GET /metrics: expected 200, got ${answer.status}`);
    const series = new Map<string, number>();
    for (const line of (await answer.text()).split('\n')) {
      const match = /^([a-z_]+) (\S+)$/.exec(line);
      if (match) series.set(match[1], Number(match[2]));
    }
    return series;
  }

  /** The journal's commit counters: commits, changes, commit-to-flush time. */
  async journal_totals(): Promise<JournalTotals> {
    const metrics = await this.metrics();
    const read = (name: string) => metrics.get(name) ?? Number.NaN;
    return {
      commits: read('billvend_journal_commit_changes_count'),
      changes: read('billvend_journal_commit_changes_sum'),
      duration_ms: read('billvend_journal_commit_duration_seconds_sum') * 1000,
    };
  }

  /**
   * `count` resellers at KYC level 3 with the PIN set, a daily limit of daily_limit_naira, a test key
   * whose rate limit is the maximum, and funding_naira in the test wallet (in credits of at most
   * credit_naira_max, each with its own reference).
   */
  async create_resellers(count: number, funding_naira: number, log: (line: string) => void): Promise<Reseller[]> {
    const started_ms = Date.now();
    const progress_every = Math.max(1, Math.ceil(count / 5));
    let done = 0;
    const resellers = await map_bounded(Array.from({ length: count }, (_, i) => i + 1), setup_in_flight_max, async (n) => {
      const account = await this.expect('POST', '/admin/accounts', {
        name: `Bench Reseller ${n}`,
        email: `bench-${n}@example.ng`,
        phone: '08012345678',
        password: bench_password,
        kyc_level: 3,
        pin: bench_pin,
      }, 201);
      const id = account.id as number;
      await this.expect('PATCH', `/admin/accounts/${id}`, { daily_limit: daily_limit_naira }, 200);
      const key = await this.expect('POST', `/admin/accounts/${id}/keys`, {
        name: 'bench',
        environment: 'test',
        rate_limit_per_minute: rate_limit_per_minute_max,
      }, 201);
      for (let credited = 0, credit = 1; credited < funding_naira; credit++) {
        const amount = Math.min(credit_naira_max, funding_naira - credited);
        await this.expect('POST', `/admin/accounts/${id}/wallet/credit`, { environment: 'test', amount, reference: `BENCH-FUND-${id}-${credit}` }, 201);
        credited += amount;
      }
      done++;
      if (count > 1 && done % progress_every === 0) log(`  ${done}/${count} accounts ready (${((Date.now() - started_ms) / 1000).toFixed(1)} s)`);
      return { account_id: id, authorization: `Bearer ${key.api_key as string}`, email: `bench-${n}@example.ng` };
    });
    return resellers;
  }
}
