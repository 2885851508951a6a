// One writer per store (docs/operations.md "One process per store"): before anything reads or writes
// DATA_DIR, the server takes an exclusive flock(2) on DATA_DIR/LOCK and holds it for its whole life.
// The kernel releases a flock when the last descriptor of its open file closes, so a process that dies,
// even by kill -9, frees the store at once; a pid file would outlive it.
//
// Node has no flock binding, and a native addon would need a compiler on every operator's machine.
// flock(1) (util-linux, in every Debian and most other Linux systems) locks a descriptor it is handed by
// number. A lock belongs to the open file description, which the child shares with this process through
// the passed descriptor: when flock(1) exits the lock stays, held by our descriptor, until this process
// closes it or dies. The descriptor is opened with O_CLOEXEC (libuv's default), so no later child keeps
// it alive after us.
import { openSync, closeSync, ftruncateSync, writeSync, readFileSync, fstatSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fail } from '../lib/assert.js';

export const lock_file_name = 'LOCK';

/** Refused because another process holds the store: the message names the directory and the holder. */
export class StoreLockedError extends Error {}

export interface StoreLock {
  readonly path: string;
  release(): void;
}

/** Takes the store's exclusive lock or throws StoreLockedError; never waits. */
export function lock_store(data_dir: string): StoreLock {
  const path = join(data_dir, lock_file_name);
  const fd = openSync(path, 'a+', 0o600);
  // flock(1): -x exclusive, -n fail at once rather than wait, exit 1 when the lock is held elsewhere.
  const result = spawnSync('flock', ['-x', '-n', '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
  if (result.error !== undefined || result.status !== 0) {
    closeSync(fd);
    if (result.error !== undefined) {
      throw new Error(`cannot lock ${data_dir}: flock(1) could not run (${result.error.message}); it comes with util-linux`);
    }
    if (result.status === 1) {
      const holder = holder_of(path);
      throw new StoreLockedError(
        `the store ${data_dir} is in use by another billvend process${holder === null ? '' : ` (pid ${holder})`}; ` +
        'one process per store: stop it first, or give this one its own DATA_DIR',
      );
    }
    throw new Error(`cannot lock ${data_dir}: flock(1) exited ${result.status}: ${result.stderr.toString().trim()}`);
  }
  // The pid is for the message a second process prints; the lock itself is the flock, not this text.
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  if (!fstatSync(fd).isFile()) fail(`${path} is not a file`);
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      closeSync(fd);
    },
  };
}

function holder_of(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
