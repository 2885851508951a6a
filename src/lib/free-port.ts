// A port the kernel calls free right now, for a server asked to listen on port 0 (see HttpFront.listen).
import { createServer } from 'node:net';

/** How often a listener retries when another process takes the probed port before it does. */
export const free_port_attempts_max = 5;

export function free_port(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}
