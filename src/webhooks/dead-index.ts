// The dead deliveries of each account and environment, by ascending id, so that an account's dead list
// is read without scanning other tenants' (regression: the dashboard read the newest 10,000 dead
// deliveries of all accounts and filtered them, so another tenant's could hide one's own;
// test/hardening-inputs.test.ts). Kept as deliveries die and are replayed, rebuilt from the store's dead
// letters on recovery. An entry is a hint: the delivery's own record decides (a commit that failed leaves
// an entry whose delivery is not dead; the dispatcher's lost() reads the lists again). Bounded by the dead letters
// in the store, ids only.
import type { Environment } from '../engine/records.js';

/** The most dead deliveries the dashboard lists for one account and environment. */
export const dead_listed_max = 200;

export interface DeadEntry {
  id: number;
  endpoint_id: number;
}

export class DeadIndex {
  private readonly lists = new Map<string, DeadEntry[]>();

  add(account_id: number, environment: Environment, id: number, endpoint_id: number): void {
    const key = `${account_id}:${environment}`;
    let list = this.lists.get(key);
    if (list === undefined) this.lists.set(key, list = []);
    // Deliveries mostly die in id order: the place is found from the end.
    let at = list.length;
    while (at > 0 && list[at - 1].id > id) at--;
    if (at > 0 && list[at - 1].id === id) return;
    list.splice(at, 0, { id, endpoint_id });
  }

  remove(account_id: number, environment: Environment, id: number): void {
    const list = this.lists.get(`${account_id}:${environment}`);
    if (list === undefined) return;
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (list[middle].id === id) {
        list.splice(middle, 1);
        return;
      }
      if (list[middle].id < id) low = middle + 1;
      else high = middle - 1;
    }
  }

  /** The entries of one account and environment, by ascending id (the array itself: read, do not change). */
  of(account_id: number, environment: Environment): readonly DeadEntry[] {
    return this.lists.get(`${account_id}:${environment}`) ?? [];
  }

  /** Drops an account's entries, to be read again from the store. */
  forget_account(account_id: number): void {
    this.lists.delete(`${account_id}:live`);
    this.lists.delete(`${account_id}:test`);
  }

  clear(): void {
    this.lists.clear();
  }
}
