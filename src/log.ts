// Logs are pino JSON on stdout, one line per request (docs/operations.md "Logs"). Nothing secret is ever passed
// to the logger: no headers, no bodies, no keys, PINs or passwords.
import { pino, type Logger } from 'pino';
import { createRequire } from 'node:module';

export type { Logger };

const pino_options = {
  base: { service: 'billvend' },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
};

export function create_logger(level: string, production: boolean, format: 'json' | 'pretty' = 'json'): Logger {
  // LOG_FORMAT=pretty (docs/operations.md "Logs"): the same records through pino-pretty, for a person at a
  // terminal. Loaded only then, so a JSON server does not pay for it at start. Written synchronously: a
  // terminal's reader wants each line as it happens, and a fatal line must be out before process.exit.
  if (format === 'pretty') {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => NodeJS.WritableStream;
    return pino({ level, ...pino_options }, pretty({ destination: 1, sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'service,pid,hostname', singleLine: true }));
  }
  // Asynchronous writes keep logging off the request's critical path; in production they are
  // buffered in 4 KiB writes. Buffered lines are flushed on shutdown.
  const destination = pino.destination({ dest: 1, sync: false, minLength: production ? 4096 : 0 });
  // Lines still buffered when the process exits (a fatal error calls process.exit) are written out.
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout already closed: nothing more can be said
    }
  });
  return pino({ level, ...pino_options }, destination);
}
