// Keeps the store's disk from filling up. lmdb-js does not survive a failed write: after ENOSPC its
// native side corrupts its heap and the process aborts (seen with a full tmpfs: "malloc(): corrupted
// top size"). So the journal never hands LMDB a batch unless the disk has room for it with a reserve
// to spare; below that, writes are refused with 503 (reads go on) until space comes back. (lmdb-js
// grows its memory map by itself, so a "full map" is the same condition: a file that cannot grow.)
import { statfs } from 'node:fs';

export interface FreeSpace {
  /** Whether a batch of about this many encoded bytes may be written now. */
  room_for(batch_bytes: number): boolean;
}

/** LMDB writes a changed value with its B-tree pages; a batch takes at most this many times its bytes. */
const page_overhead_factor = 4;
const page_bytes = 4096;

export class DiskGuard implements FreeSpace {
  private free_bytes = Number.POSITIVE_INFINITY;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly path: string, readonly reserve_bytes: number, interval_ms = 250, private readonly on_change: (low: boolean) => void = () => {}) {
    this.refresh();
    // A plain interval, not the timer wheel: this watches the real disk and must not speed up or
    // slow down with TIME_SCALE.
    this.timer = setInterval(() => this.refresh(), interval_ms);
    this.timer.unref();
  }

  private low = false;

  private refresh(): void {
    statfs(this.path, (error, stats) => {
      if (error !== null) return;
      this.free_bytes = Number(stats.bavail) * Number(stats.bsize);
      const low = this.free_bytes < this.reserve_bytes;
      if (low !== this.low) {
        this.low = low;
        this.on_change(low);
      }
    });
  }

  room_for(batch_bytes: number): boolean {
    return this.free_bytes - (batch_bytes * page_overhead_factor + 16 * page_bytes) >= this.reserve_bytes;
  }

  get is_low(): boolean {
    return this.low;
  }

  /** Bytes free on the store's disk as last measured. */
  get free(): number {
    return this.free_bytes;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
