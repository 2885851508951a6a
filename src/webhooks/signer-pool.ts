// The piscina pool that signs webhook payloads off the event loop. Jobs are gathered for one
// event-loop turn (or up to batch_jobs_max) and sent as one task, so the pool's per-task overhead is
// paid once per batch.
import { Piscina } from 'piscina';
import type { SignJob, Signatures } from './webhook-signer.worker.js';

export const batch_jobs_max = 64;
/** Batches waiting for a worker; piscina's default queue is unbounded, so it is set here. */
export const pool_queue_max = 256;

interface Pending {
  job: SignJob;
  resolve: (signatures: Signatures) => void;
  reject: (error: unknown) => void;
}

export class SignerPool {
  private readonly pool: Piscina<SignJob[], Signatures[]>;
  private batch: Pending[] = [];
  private scheduled = false;

  constructor() {
    this.pool = new Piscina({
      filename: new URL('./webhook-signer.worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: 2,
      idleTimeout: 60_000,
      maxQueue: pool_queue_max,
    });
  }

  sign(job: SignJob): Promise<Signatures> {
    return new Promise((resolve, reject) => {
      this.batch.push({ job, resolve, reject });
      if (this.batch.length >= batch_jobs_max) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.batch;
    if (batch.length === 0) return;
    this.batch = [];
    this.pool.run(batch.map((p) => p.job)).then(
      (signatures) => {
        for (let i = 0; i < batch.length; i++) batch[i].resolve(signatures[i]);
      },
      (error) => {
        for (const pending of batch) pending.reject(error);
      },
    );
  }

  get queue_size(): number {
    return this.pool.queueSize;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
