// One HTTP call of a funding provider module (Paystack, Flutterwave): JSON in and out, the configured
// deadline (FUNDING_PROVIDERS timeout_ms) on the whole call, body included, the caller's abort signal
// honoured, and the answer's size bounded. What an answer means is the module's to say; this only tells an
// answer (any HTTP status, its body parsed when it is JSON) from no answer (FundingProviderError, retryable:
// the request may or may not have been seen, so asking again later is the way to know).
import { FundingProviderError } from './funding-provider.js';

/** Larger answers are not read: no documented answer of these APIs comes near it (a page of 100 rows). */
export const answer_bytes_max = 4 * 1024 * 1024;

export interface ProviderAnswer {
  readonly status: number;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  readonly body: unknown;
}

export interface ProviderRequest {
  readonly provider: string;
  readonly base_url: string;
  readonly timeout_ms: number;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload?: unknown;
  readonly signal: AbortSignal;
}

/** The bare origin with any trailing slash removed, so that a documented path can be appended. */
export function bare_origin(base_url: string): string {
  return base_url.replace(/\/+$/, '');
}

export async function provider_request(request: ProviderRequest): Promise<ProviderAnswer> {
  const deadline = AbortSignal.timeout(request.timeout_ms);
  const signal = AbortSignal.any([request.signal, deadline]);
  const unanswered = (why: string) => new FundingProviderError(`${request.provider}: ${why}`, true);
  try {
    const response = await fetch(bare_origin(request.base_url) + request.path, {
      method: request.method,
      headers: { accept: 'application/json', ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      body: request.payload === undefined ? undefined : JSON.stringify(request.payload),
      signal,
    });
    const text = await read_bounded(response);
    if (text === null) throw unanswered(`answer larger than ${answer_bytes_max} bytes (HTTP ${response.status})`);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    if (error instanceof FundingProviderError) throw error;
    if (deadline.aborted) throw unanswered(`no answer within ${request.timeout_ms} ms`);
    if (request.signal.aborted) throw unanswered('request abandoned');
    throw unanswered(`connection failed (${(error as Error).message})`);
  }
}

/** The body as text, or null past answer_bytes_max; chunks are copied as they arrive. */
async function read_bounded(response: Response): Promise<string | null> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > answer_bytes_max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why an answer is not the success the module expected, as a FundingProviderError: a provider that is down
 *  (5xx), rate limited (429) or answered something unreadable may answer later (retryable); a refusal (other
 *  4xx, or a documented error envelope) will not change by asking again. */
export function refusal(provider: string, answer: ProviderAnswer, message: unknown): FundingProviderError {
  const said = typeof message === 'string' && message.trim() !== '' ? `: ${message.trim().slice(0, 200)}` : '';
  if (answer.status >= 500 || answer.status === 429) return new FundingProviderError(`${provider}: HTTP ${answer.status}${said}`, true);
  if (answer.status === 401 || answer.status === 403) return new FundingProviderError(`${provider}: credentials refused (HTTP ${answer.status})${said}`, false);
  if (answer.status >= 400) return new FundingProviderError(`${provider}: refused (HTTP ${answer.status})${said}`, false);
  if (answer.body === undefined) return new FundingProviderError(`${provider}: unreadable answer (HTTP ${answer.status})`, true);
  return new FundingProviderError(`${provider}: refused${said}`, false);
}
