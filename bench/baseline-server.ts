// The two yardsticks of every bench (docs/benchmarks.md "Yardsticks"): a bare uWebSockets.js server
// answering the routes the scenarios call with fixed JSON bodies the size of billvend's answers.
// It does what any uWS server must do (attach onAborted, read the POST body to its end with onData
// before answering, cork the write) and nothing else: no routing table, auth, validation, journal or
// logging. BASELINE_HEADERS picks what it writes around the body:
//   minimal   one Content-Type header, the body not copied: the machine's limit (limit-get, limit-post)
//   billvend  the headers billvend must send, the body copied out of uWS's buffer as billvend does
//             (baseline-get, baseline-post): the limit less the cost of those headers
// A scenario's ratio to the first is the share of the machine's HTTP capacity billvend keeps; to the
// second, the share it keeps of what any server sending its headers could do.
//
// Run by bench/server-process.ts as its own process: HOST, PORT and BASELINE_HEADERS from the environment.
import * as uWS from 'uWebSockets.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? '0');
const headers_mode = process.env.BASELINE_HEADERS ?? 'billvend';
if (headers_mode !== 'minimal' && headers_mode !== 'billvend') {
  process.stderr.write(`baseline: BASELINE_HEADERS must be minimal or billvend, got "${headers_mode}"\n`);
  process.exit(2);
}
const minimal = headers_mode === 'minimal';

/** Same size as billvend's requests are capped at, so a runaway body is refused the same way. */
const body_bytes_max = 16 * 1024;

// Fixed answers shaped like billvend's envelopes, built once (a request id of the real length).
const request_id = 'req_01KAJ4Z3Q8BNCH00001';
const wallet_body = JSON.stringify({ success: true, data: { balance: 99999900, bonus_balance: 0, currency: 'NGN' }, request_id });
const account_body = JSON.stringify({
  success: true,
  data: { id: 1, name: 'Bench Reseller 1', email: 'bench-1@example.ng', phone: '+2348012345678', tier: 'standard', kyc_level: 3, created_at: '2025-01-01T00:00:00.000000Z' },
  request_id,
});
const purchase_body = JSON.stringify({
  success: true,
  message: 'Airtime delivered.',
  data: { reference: 'BV-20250101-0123456789AB', status: 'delivered', network: 'mtn', phone: '+2348011111111', amount: 100, wallet_balance_after: 99999900 },
  request_id,
});
const transaction_body = JSON.stringify({
  success: true,
  data: {
    reference: 'BV-20250101-0123456789AB', service_type: 'airtime', environment: 'test', network: 'mtn', recipient: '+2348011111111',
    amount: 100, status: 'delivered', wallet_balance_before: 100000000, wallet_balance_after: 99999900, failure_reason: null,
    reversed: false, created_at: '2025-01-01T00:00:00.000000Z', updated_at: '2025-01-01T00:00:00.100000Z',
    delivered_at: '2025-01-01T00:00:00.100000Z', status_history: [{ status: 'pending', at: '2025-01-01T00:00:00.000000Z' }, { status: 'delivered', at: '2025-01-01T00:00:00.100000Z' }],
  },
  request_id,
});
const not_found_body = JSON.stringify({ success: false, error: { code: 'route.not_found', message: 'No such route.' }, request_id });
const too_large_body = JSON.stringify({ success: false, error: { code: 'request.too_large', message: 'Body over 16 KiB.' }, request_id });

/**
 * The headers every billvend API answer carries (src/front/security-headers.ts api_json_headers,
 * X-Request-Id, the rate-limit trio), with fixed values of the same length, written as one block the way billvend writes them.
 * The load generator parses every header of every answer: with only a Content-Type here, the ratio
 * would charge billvend for the client's work of reading the headers the spec asks for.
 */
const billvend_header_block = [
  'application/json; charset=utf-8',
  'X-Content-Type-Options: nosniff',
  'Cache-Control: no-store',
  `X-Request-Id: ${request_id}`,
  'X-RateLimit-Limit: 1000000',
  'X-RateLimit-Remaining: 999999',
  'X-RateLimit-Reset: 1795325745',
].join('\r\n');
const header_block = minimal ? 'application/json' : billvend_header_block;

function reply(res: uWS.HttpResponse, status: string, body: string, close_connection = false): void {
  res.cork(() => {
    res.writeStatus(status).writeHeader('Content-Type', header_block).end(body, close_connection);
  });
}

function answer_get(body: string) {
  return (res: uWS.HttpResponse) => {
    res.onAborted(() => {});
    reply(res, '200 OK', body);
  };
}

/**
 * Reads the whole body, then answers 201. With billvend's headers each chunk is copied (uWS reuses
 * their memory, so a server that keeps the body must); the minimal server only counts the bytes.
 */
function answer_post(body: string) {
  return (res: uWS.HttpResponse) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    let chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, is_last) => {
      if (aborted) return;
      size += chunk.byteLength;
      if (size > body_bytes_max) {
        aborted = true;
        reply(res, '413 Payload Too Large', too_large_body, true);
        return;
      }
      if (!minimal) chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (is_last) {
        if (minimal) {
          reply(res, '201 Created', body);
          return;
        }
        const request_body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
        chunks = [];
        if (request_body.length !== size) throw new Error('assertion failed: body bytes lost');
        reply(res, '201 Created', body);
      }
    });
  };
}

const app = uWS.App()
  .get('/healthz', answer_get('{"status":"live"}'))
  .get('/v1/wallet', answer_get(wallet_body))
  .get('/v1/account', answer_get(account_body))
  .get('/v1/transactions/:reference', answer_get(transaction_body))
  .post('/v1/services/airtime', answer_post(purchase_body))
  .post('/v1/services/data/purchase', answer_post(purchase_body))
  .post('/v1/services/electricity', answer_post(purchase_body))
  .post('/v1/services/tv', answer_post(purchase_body))
  .any('/*', (res) => {
    res.onAborted(() => {});
    reply(res, '404 Not Found', not_found_body);
  });

app.listen(host, port, (socket) => {
  if (!socket) {
    process.stderr.write(`baseline: cannot listen on ${host}:${port}\n`);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify({ msg: 'listening', port: uWS.us_socket_local_port(socket) }) + '\n');
});

// Nothing to drain or flush: a bare server just goes.
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
