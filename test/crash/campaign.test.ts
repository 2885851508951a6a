// The crash campaign (bounded form, run by `npm test`; `npm run torture` runs the long form): a mixed
// load of purchases with every sandbox outcome and live ones through a fake upstream, operator credits,
// sandbox top-ups, key creations and revocations and webhook deliveries, killed with kill -9 at a
// random moment of every round and restarted on the same store with LMDB_RESTORE=safe. After each
// kill an independent checker reads the journal; after each restart the API is checked; at the end
// every wallet, refund and event is accounted for. See test/crash/campaign.ts for the round.
//
// CRASH_ROUNDS (default 20), CRASH_SEED (default random, printed), CRASH_TIME_SCALE (default 0.001),
// CRASH_REPORT (a file to write the summary line to), CRASH_CANCELS=0 (no cancel turns), CRASH_FUNDING=0 (no funding
// providers or funding turns: callbacks, reconciles, forged callbacks; test/crash/README.md), CRASH_AGENTS=0 (no agent
// tree or agent turns: transfers, agents' purchases, suspensions, closings; test/crash/README.md "Agent trees"), CRASH_BUDGET_S
// (default 180 with the default rounds, none when CRASH_ROUNDS is set): no round starts after the budget,
// so that a machine slowed by its neighbours (a round took 15 s instead of 4 in one CI run) ends the
// bounded form within tap's 300 s per file; at least min_rounds still run, and the comment says how many did.
// CRASH_CLUSTER=1: cluster mode (test/crash/README.md), two nodes on three NATS servers, and the kill of
// every round is the leader's: the standby takes over and the killed node restarts as the standby.
// In turns of three rounds, the standby (restarted at once) or a NATS server (restarted after the
// failover) is killed first. CRASH_PARTITIONS=1 (with CRASH_CLUSTER=1; needs root and `ip netns`, skipped
// otherwise): the NATS servers and nodes each in a network namespace of their own, and every other round cuts the
// cluster during its load (campaign-partitions.ts; test/crash/README.md "Partitions"); CRASH_PARTITION_SEED seeds
// the flaky links (default random, printed).
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { Campaign } from './campaign.js';
import { netns_unavailable } from '../helpers/netns.js';

const rounds = Number(process.env.CRASH_ROUNDS ?? 20);
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const time_scale = Number(process.env.CRASH_TIME_SCALE ?? 0.001);
const budget_ms = 1000 * Number(process.env.CRASH_BUDGET_S ?? (process.env.CRASH_ROUNDS === undefined ? 180 : Number.POSITIVE_INFINITY));
const min_rounds = Math.min(rounds, 5);
const cluster = process.env.CRASH_CLUSTER === '1';
const partitions = cluster && process.env.CRASH_PARTITIONS === '1'
  ? { seed: Number(process.env.CRASH_PARTITION_SEED ?? Math.floor(Math.random() * 2 ** 31)) }
  : undefined;
const partitions_unavailable = partitions === undefined ? null : netns_unavailable();

t.test(`${rounds} rounds of kill -9 under mixed load: every acknowledged answer is reflected exactly once, every wallet adds up, every event is delivered`, { skip: partitions_unavailable ?? false }, async (t) => {
  const started = Date.now();
  const campaign = new Campaign({ rounds, time_scale, writers: 32, kill_after_ms: [100, 700], accounts: 4, seed, cluster, partitions });
  t.teardown(async () => {
    const kept = await campaign.teardown();
    if (kept !== null) t.comment(`the store, the server log and every request and answer are kept in ${kept} (seed ${seed})`);
  });
  await campaign.setup();
  t.comment(`seed ${seed}, TIME_SCALE ${time_scale}, run ${campaign.model.run_id}${cluster ? ', cluster mode' : ''}${partitions === undefined ? '' : `, partitions (seed ${partitions.seed})`}${cluster ? `; the nodes' and NATS servers' logs are written to ${campaign.log_dir} as they come` : ''}`);

  let stats = null;
  let rounds_run = 0;
  for (let round = 1; round <= rounds; round++) {
    if (round > min_rounds && Date.now() - started > budget_ms) {
      t.comment(`the time budget of ${budget_ms / 1000} s ran out after ${rounds_run} rounds; the rest are skipped`);
      break;
    }
    rounds_run = round;
    const report = await campaign.run_round(round);
    stats = report.store_stats ?? stats;
    const before = report.extra_kill === 'none' ? '' : report.extra_kill === 'partition' ? `, ${report.partition?.label} first` : `, ${report.extra_kill === 'nats' ? 'a NATS server' : 'the standby'} killed first`;
    const what = `round ${round} (kill ${report.kill_mode} after ${report.kill_after_ms} ms${before}, ${report.acknowledged} of ${report.sent} requests answered, ${report.unanswered} cut by the kill)`;
    t.same(report.load_violations, [], `${what}: every answer is one the sandbox table or the operation allows`);
    t.same(report.store_violations, [], `${what}: the journal read after the kill keeps every invariant and every acknowledged operation exactly once`);
    t.equal(report.fatal, null, `${what}: the server restarts on the store`);
    if (report.fatal !== null) break;
    t.same(report.api_violations, [], `${what}: through the API, every acknowledged answer is reflected exactly once and replays byte for byte`);
    if (report.partition !== null) {
      // Availability through the fault (test/cluster-partitions.test.ts's bars); the pause is recorded, not asserted
      // here: its target (the lease plus 5 s) is not met on nats-server 2.9 when the cut takes a Raft leader
      // (docs/cluster.md "Partitions, measured").
      const fault = report.partition;
      t.comment(`round ${round} partition: ${report.extra_detail}; ${report.cut_errors} connections failed during the fault, ${report.refused} answers 503`);
      t.ok(fault.one_leader_ms !== null, `${what}: one leader within 40 s of healing ${fault.label} (${fault.one_leader_ms} ms)`);
      t.ok(fault.exits_ok, `${what}: no node exited more than once during ${fault.label} (${JSON.stringify(fault.exits)})`);
      t.ok(fault.both_back, `${what}: after ${fault.label}, the nodes were back as leader and caught-up standby within 60 s`);
    }
    if (process.env.CRASH_VERBOSE) {
      t.comment(`round ${round}: ${report.duration_ms} ms ${JSON.stringify(report.phases_ms)}, ${report.kill_mode} ${report.kill_detail}${report.extra_detail === '' ? '' : `, ${report.extra_detail}`}${report.refused > 0 ? `, ${report.refused} refused (503)` : ''}, open orders at the kill ${report.store_stats?.open_orders}, pending deliveries ${report.store_stats?.pending_deliveries}, incomplete idempotency records ${report.store_stats?.incomplete_idempotency_records}, store ${report.store_stats?.data_bytes} bytes, unflushed commits discarded by the restart ${report.store_stats?.commits_discarded}${(report.store_stats?.not_found_scaled_grace ?? 0) > 0 ? `, live orders failed on a 015 the scaled not-found grace believed before their pay arrived (the time scale's, checker.ts) ${report.store_stats?.not_found_scaled_grace}` : ''}`);
    }
  }
  t.ok(rounds_run >= min_rounds, `at least ${min_rounds} rounds ran (${rounds_run})`);
  t.equal(campaign.totals.kills, rounds_run, `the server was killed with SIGKILL ${rounds_run} times`);
  t.ok(campaign.totals.acknowledged > rounds_run * 20, `${campaign.totals.acknowledged} answers were acknowledged`);
  const bulk = campaign.bulk_acknowledged();
  t.ok(bulk.batches > 0 && bulk.items > 0, `${bulk.batches} bulk orders were acknowledged, placing ${bulk.items} items`);

  const final = await campaign.finish();
  stats = final.store_stats ?? stats;
  t.same(final.violations, [], 'at the end: nothing open, every wallet equals its credits minus its delivered orders, every failed order refunded once, every implied event delivered, the journal clean');
  t.ok(final.implied_events > 0, `${final.implied_events} events implied by acknowledged operations were checked at the receiver`);

  const summary = campaign.summary(Date.now() - started, stats);
  t.comment(summary);
  if (campaign.partitions !== null) {
    const kinds = new Set(campaign.partitions.records.map((record) => record.kind));
    t.ok(rounds_run < 10 || kinds.size === 4, `every kind of partition fault ran (${[...kinds].join(', ')})`);
  }
  if (process.env.CRASH_REPORT) writeFileSync(process.env.CRASH_REPORT, summary + '\n');
});
