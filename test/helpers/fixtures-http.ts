// Small tools the end-to-end tests share: a raw HTTP/1.1 client (for requests fetch will not send,
// such as a Content-Length larger than the body), polling for log lines, running the CLI, and the
// checks every error answer must pass.
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { cli_path, repo_root, type TestServer } from './server.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are to 127.0.0.1:port and reads until the server has sent one whole response
 * (by Content-Length) or closed the connection.
 */
export function raw_http(port: number, request: string | Buffer, timeout_ms = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (error: Error | null) => {
      if (settled) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const head_end = text.indexOf('\r\n\r\n');
      if (error !== null && head_end === -1) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error);
        return;
      }
      if (head_end === -1) return;
      const [status_line, ...header_lines] = text.slice(0, head_end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of header_lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body_bytes = Buffer.concat(chunks).subarray(Buffer.byteLength(text.slice(0, head_end + 4), 'latin1'));
      const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
      if (error === null && length !== null && body_bytes.length < length) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(status_line.split(' ')[1]), headers, body: body_bytes.toString('utf8') });
    };
    const timer = setTimeout(() => done(new Error('raw_http: no complete response in time')), timeout_ms);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      done(null);
    });
    socket.on('end', () => done(new Error('raw_http: connection closed')));
    socket.on('error', (error) => done(error));
    socket.on('close', () => done(new Error('raw_http: connection closed')));
    socket.write(request);
  });
}

/** Polls until the predicate holds; the server's logs arrive asynchronously on a pipe. */
export async function wait_for<T>(read: () => T | undefined | null | false, timeout_ms = 3000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The parsed JSON log lines of a server (its stdout). */
export function log_records(server: TestServer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of server.logs) {
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not every line need be JSON for this helper's purpose; the log tests check that separately.
    }
  }
  return out;
}

/** Waits for the request log lines of a request id. */
export async function request_log_lines(server: TestServer, request_id: string): Promise<Record<string, unknown>[]> {
  await wait_for(() => log_records(server).some((r) => r.request_id === request_id && r.msg === 'request'), 3000, `the log line of ${request_id}`);
  // A second line for the same request would be a defect; give a late one a moment to show up.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return log_records(server).filter((r) => r.request_id === request_id && r.msg === 'request');
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.js <args>` with exactly the environment given (plus PATH and HOME). */
export function run_cli(args: string[], env: Record<string, string>, timeout_ms = 20_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli_path, ...args], {
      cwd: repo_root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish in ${timeout_ms} ms`));
    }, timeout_ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolve({ code, stdout, stderr }));
    });
  });
}

/** Text that would betray a stack trace or the server's file layout in an answer. */
export const stack_trace_patterns: RegExp[] = [
  /\bat [^\s]+ \(/,
  /\n\s+at /,
  /\bat (file|node):/,
  /[\w/.-]+\.(js|ts|mjs|cjs):\d+/,
  /\/(src|dist|node_modules)\//,
  /\bError: /,
];

export function stack_trace_in(text: string): RegExp | null {
  for (const pattern of stack_trace_patterns) if (pattern.test(text)) return pattern;
  return null;
}

/** A random base62 string, e.g. for well-formed but unknown API keys. */
export function base62(length: number): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** Waits a number of milliseconds: only where the behaviour under test is about wall-clock time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
