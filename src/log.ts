// Logs are pino JSON on stdout, one line per request (docs/operations.md "Logs"). Nothing secret is ever passed
// to the logger: no headers, no bodies, no keys, PINs or passwords.
import { pino, type Logger } from 'pino';

export type { Logger };

export function create_logger(level: string, production: boolean): Logger {
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
  return pino(
    {
      level,
      base: { service: 'billvend' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
