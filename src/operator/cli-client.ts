// The operator commands are thin clients of the operator API (docs/operations.md "Command line"): they
// send one request with ADMIN_TOKEN and print the answer's data as JSON, or the error on stderr.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One operator request; past this the command gives up rather than hang a script. */
export const operator_request_timeout_ms = 30_000;

export interface OperatorRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Prints the answer's data for a person instead of as JSON (`account tree` without --json). */
  render?: (data: unknown) => string;
}

/** Something outside the command line went wrong (no token, no server): stderr, exit status 1. */
export class ClientError extends Error {}

function admin_token(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const path = join(process.env.DATA_DIR || 'data/store', 'admin-token');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new ClientError(`no ADMIN_TOKEN in the environment and cannot read ${path}`);
  }
}

function operator_url(path: string): string {
  const host = process.env.ADMIN_HOST && process.env.ADMIN_HOST !== '0.0.0.0' ? process.env.ADMIN_HOST : '127.0.0.1';
  const port = process.env.ADMIN_PORT || '8081';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  message?: string;
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
}

/** Sends the request; prints data on stdout (and a replay's notice on stderr) and returns 0, or the error on stderr and returns 1. */
export async function call_operator(request: OperatorRequest): Promise<number> {
  const url = operator_url(request.path);
  const token = admin_token();
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(operator_request_timeout_ms),
    });
  } catch (error) {
    const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${operator_request_timeout_ms / 1000} s` : ((error as Error).cause ?? (error as Error).message);
    throw new ClientError(`cannot reach the operator API at ${url}: ${cause}`);
  }
  const text = await response.text();
  let parsed: Envelope;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    throw new ClientError(`the operator API answered ${response.status} with a body that is not JSON`);
  }
  if (!response.ok || parsed.success !== true) {
    const details = parsed.error?.details?.map((d) => `\n  ${d.field}: ${d.message}`).join('') ?? '';
    process.stderr.write(`billvend: ${parsed.error?.code ?? response.status}: ${parsed.error?.message ?? 'request failed'}${details}\n`);
    return 1;
  }
  // A replay (a wallet credit whose reference was used) did nothing new: stdout still gets the data (the first
  // credit), as scripts read it, and stderr says it was a replay, so a person sees nothing happened. Exit 0: the
  // wallet holds the credit the reference stands for (docs/operations.md "Command line").
  if (response.headers.get('idempotent-replayed') === 'true') {
    process.stderr.write(`billvend: replayed, nothing changed: ${parsed.message ?? 'this request was already made'} The first answer follows.\n`);
  }
  process.stdout.write(request.render === undefined ? JSON.stringify(parsed.data ?? null, null, 2) + '\n' : request.render(parsed.data));
  return 0;
}
