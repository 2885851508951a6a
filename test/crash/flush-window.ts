// Kills the server inside a commit's flush window: the moment the dead process has committed a
// transaction that is not on disk yet, which the LMDB_RESTORE=safe restart then discards. Replies for
// that commit must not have left; a server that answered at commit instead of at flush loses
// acknowledged work exactly here. A kill at a random moment hits this window rarely when fsync is
// fast, so the campaign aims for it in every third round.
//
// How the window shows (lmdb-js's LMDB fork, overlappingSync): data.mdb's two meta pages carry the
// txnid of the last two commits, and page 0 carries, at half a page, a copy of the meta of the last
// *flushed* commit. Newest meta txnid > flushed txnid ⇔ a commit is waiting for its flush. A worker
// thread reads those three numbers in a tight loop (through the page cache, as the server writes
// them) and sends SIGKILL the moment the window opens; the test's event loop is not involved.
import { Worker } from 'node:worker_threads';

const worker_source = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { path, pid, timeout_ms, delay_max_ms } = workerData;
// MDB_page_header is 24 bytes; in MDB_meta, mm_dbs[0].md_pad (the page size) is at 24, mm_txnid at 128.
const header = 24, psize_at = 24, txnid_at = 128;
const fd = fs.openSync(path, 'r');
const head = Buffer.alloc(64);
fs.readSync(fd, head, 0, 64, 0);
const psize = head.readUInt32LE(header + psize_at);
const buf = Buffer.alloc(psize * 2);
const nap = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + timeout_ms;
let result = { killed: false, detail: 'no flush window was hit in ' + timeout_ms + ' ms' };
const read = () => {
  fs.readSync(fd, buf, 0, psize * 2, 0);
  const m0 = buf.readBigUInt64LE(header + txnid_at);
  const m1 = buf.readBigUInt64LE(psize + header + txnid_at);
  return { newest: m0 > m1 ? m0 : m1, flushed: buf.readBigUInt64LE(header + psize / 2 + txnid_at) };
};
let windows = 0;
while (Date.now() < deadline) {
  const opened = read();
  if (opened.newest > opened.flushed) {
    // Strike at a random point of the window (up to delay_max_ms in), so that replies a broken
    // server sent at commit time have had a chance to leave; only if the same commit is still unflushed.
    windows++;
    const opened_at = process.hrtime.bigint();
    const delay_ns = BigInt(Math.floor(Math.random() * delay_max_ms * 1e6));
    while (process.hrtime.bigint() - opened_at < delay_ns) Atomics.wait(nap, 0, 0, 0.01);
    const now = read();
    if (now.flushed < opened.newest) {
      try {
        process.kill(pid, 'SIGKILL');
        result = { killed: true, detail: 'commit ' + opened.newest + ' not flushed (flushed up to ' + now.flushed + '), ' + Number((process.hrtime.bigint() - opened_at) / 1000n) + ' µs into the window, ' + windows + ' window(s) tried' };
      } catch (error) {
        result = { killed: false, detail: 'kill failed: ' + error.message };
      }
      break;
    }
    continue;
  }
  Atomics.wait(nap, 0, 0, 0.02);
}
fs.closeSync(fd);
parentPort.postMessage(result);
`;

/** Resolves once the server was killed in a flush window, or when none opened within timeout_ms. */
export function kill_in_flush_window(data_mdb_path: string, pid: number, timeout_ms: number, delay_max_ms = 2): Promise<{ killed: boolean; detail: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(worker_source, { eval: true, workerData: { path: data_mdb_path, pid, timeout_ms, delay_max_ms } });
    worker.once('message', (result) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
