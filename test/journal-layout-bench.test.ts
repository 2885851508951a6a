// The bench journal-layout (docs/design.md "The journal's layout, measured") at a tiny size, so that the
// suite keeps it working: every layout runs, and what each wrote is in the store when it ends.
import t from 'tap';
import { layouts, measure_layouts } from '../bench/journal-layout.js';

t.test('the journal-layout bench runs every layout at a tiny size and writes what it measures', async (t) => {
  const purchases_per_commit = 3;
  const commits = 4;
  const { rows, view_keys, log_values, purchase_records, lookup_keys } = await measure_layouts(purchases_per_commit, commits);
  t.equal(rows.length, layouts.length * 3, 'three alternated rounds of every layout');
  for (const row of rows) {
    t.ok(row.whole_us > 0 && row.figures.reply_path_us > 0, `${row.layout}, round ${row.round}: CPU was counted (${row.whole_us.toFixed(1)} µs)`);
    t.ok(row.figures.bytes_per_purchase > 1_000, `${row.layout}, round ${row.round}: a purchase encodes as the engine's records do (${row.figures.bytes_per_purchase.toFixed(0)} bytes)`);
  }
  // Per-key puts and the views after the log write the same keys for the same purchases (the same seqs),
  // so the views hold each purchase's 12 keys once, less the wallets shared by accounts.
  const purchases = purchases_per_commit * commits * 3 + purchases_per_commit * Math.min(50, commits);
  t.ok(view_keys >= purchases * 11, `the views hold every purchase's keys (${view_keys} keys for ${purchases} purchases)`);
  // One log value per commit of the two log layouts that keep theirs, warm-up included; the coalesced layouts
  // remove what their views' runs covered, and their last run covers the rest.
  t.equal(log_values, (commits * 3 + Math.min(50, commits)) * 2, 'the log holds one packed value per commit of each log layout that keeps it, none of the coalesced ones');
  // The one-record layouts: a record per purchase of their six rounds (no warm-up), and five lookup keys a purchase for the three rounds that write them.
  t.equal(purchase_records, purchases_per_commit * commits * 3 * 2, 'one packed record per purchase of the one-record layouts');
  t.equal(lookup_keys, purchases_per_commit * commits * 3 * 5, 'five lookup keys per purchase of the layout that keeps them');
});
