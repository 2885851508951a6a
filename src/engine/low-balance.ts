// The low-balance alert (docs/api.md "Low-balance alert"): per account and environment a threshold, and
// the event wallet.low_balance once each time a debit takes the balance from at or above it to below
// it. The threshold lives in the wallet record, which every debit writes anyway, so the alert costs no
// write of its own; the event is emitted in the debit's command, so it is in the debit's commit.
import type { CommandActor } from './command-actor.js';
import type { Environment, WalletEntry } from './records.js';

/** The largest threshold: the largest amount the API accepts anywhere (docs/decisions.md "Money"). */
export const low_balance_threshold_kobo_max = 100_000_000 * 100;

export function low_balance_threshold(actor: CommandActor, environment: Environment): number | null {
  return actor.wallets[environment].low_balance_threshold_kobo ?? null;
}

/** Sets or clears (null) the threshold of the key's environment: one wallet write. */
export function set_low_balance_threshold(actor: CommandActor, environment: Environment, threshold_kobo: number | null): void {
  actor.wallets[environment].low_balance_threshold_kobo = threshold_kobo;
  actor.stage_wallet(environment);
}

/** Called with every debit entry, in the debit's command: emits the alert when the debit crossed the threshold. */
export function check_low_balance(actor: CommandActor, environment: Environment, entry: WalletEntry): void {
  const threshold_kobo = actor.wallets[environment].low_balance_threshold_kobo;
  if (threshold_kobo == null) return;
  if (entry.balance_before_kobo >= threshold_kobo && entry.balance_after_kobo < threshold_kobo) {
    actor.emit(environment, 'wallet.low_balance', { entry, threshold_kobo });
  }
}
