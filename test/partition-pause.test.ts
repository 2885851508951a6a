// The partition harness's measures of a write pause (test/helpers/partition-faults.ts): the longest gap between
// acknowledgements that began during a cut, where it began, and the leader elections NATS logged inside it, read
// from lines nats-server 2.9.10 wrote in the crash campaign of 2026-11-29 (seed 9641, its nats1.log), verbatim.
import t from 'tap';
import { longest_pause, nats_elections } from './helpers/partition-faults.js';

const local = (h: number, m: number, s: number, ms: number) => new Date(2026, 10, 29, h, m, s, ms).getTime();

t.test('the longest pause that began during the cut, and where it began', async (t) => {
  const cut = 1_000;
  const healed = 13_000;
  t.same(longest_pause([500, 1_200, 1_300, 9_300, 9_400, 14_000], cut, healed, 20_000), { pause_ms: 8_000, past_heal: false, resumed: true, from_ms: 1_300 }, 'between two acknowledgements during the cut');
  t.same(longest_pause([1_200, 1_300, 15_300], cut, healed, 20_000), { pause_ms: 14_000, past_heal: true, resumed: true, from_ms: 1_300 }, 'one that ran past the heal counts in full');
  t.same(longest_pause([1_200], cut, healed, 20_000), { pause_ms: 18_800, past_heal: true, resumed: false, from_ms: 1_200 }, 'none since: until now');
  t.same(longest_pause([], cut, healed, 20_000), { pause_ms: 19_000, past_heal: true, resumed: false, from_ms: cut }, 'none at all: from the cut');
});

t.test('the elections a NATS server logged, by what they elect, within the times asked', async (t) => {
  const log = [
    '[17352] 2026/11/29 23:08:16.888923 [INF] JetStream cluster new metadata leader: nats2/billvend-bv497b3',
    "[17352] 2026/11/29 23:08:20.865926 [INF] JetStream cluster new stream leader for '$G > KV_billvend-lease'",
    "[17352] 2026/11/29 23:08:24.836062 [INF] JetStream cluster new consumer leader for '$G > BILLVEND_JOURNAL > og6czS5D47kGZAL3W7QDZD_1'",
    '[17352] 2026/11/29 23:08:31.979215 [INF] Self is new JetStream cluster metadata leader',
    "[17354] 2026/11/29 23:08:31.980240 [INF] JetStream cluster new stream leader for '$G > BILLVEND_JOURNAL'",
    "[17353] 2026/11/29 23:08:40.627192 [WRN] JetStream cluster stream '$G > BILLVEND_JOURNAL' has NO quorum, stalled",
    "[17352] 2026/11/29 23:09:56.042604 [INF] JetStream cluster new stream leader for '$G > BILLVEND_JOURNAL'",
    '--- nats1 started at 2026-11-29T23:10:05.000Z',
  ].join('\n');
  t.same(nats_elections(log, local(23, 8, 0, 0), local(23, 9, 0, 0)), [
    { what: 'lease', at_ms: local(23, 8, 20, 865) },
    { what: 'meta', at_ms: local(23, 8, 31, 979) },
    { what: 'journal', at_ms: local(23, 8, 31, 980) },
  ], 'the lease bucket\'s, the meta group\'s (as the elected server says it) and the journal\'s; not a consumer\'s, nor another server\'s news of a meta leader');
  t.same(nats_elections(log, local(23, 9, 0, 0), local(23, 10, 0, 0)), [{ what: 'journal', at_ms: local(23, 9, 56, 42) }], 'only those within the times asked');
  t.same(nats_elections('', 0, Date.now()), [], 'an empty log: none');
});
