// Money (src/lib/money.ts; docs/decisions.md "Money"): NGN numbers with at most 2 decimals in, integer kobo
// inside, and back out as the exact decimal.
import t from 'tap';
import { naira_to_kobo, kobo_to_naira } from '../src/lib/money.js';

t.test('naira_to_kobo accepts NGN amounts with at most 2 decimals up to 100,000,000', async (t) => {
  const rows: [number, number][] = [
    [0, 0],
    [50, 5000],
    [50.5, 5050],
    [50.55, 5055],
    [0.1, 10],
    [0.07, 7],
    [0.29, 29],
    [1.1, 110],
    [19.99, 1999],
    [1234567.89, 123456789],
    [99999999.99, 9999999999],
    [100_000_000, 10_000_000_000],
  ];
  for (const [naira, kobo] of rows) {
    const result = naira_to_kobo(naira);
    t.same(result, { ok: true, kobo }, `${naira} NGN is ${kobo} kobo`);
  }
});

t.test('naira_to_kobo refuses more than 2 decimals, negatives, non-finite numbers, strings and amounts over the maximum', async (t) => {
  const rows: [string, unknown][] = [
    ['50.555', 50.555],
    ['0.001', 0.001],
    ['-1', -1],
    ['-0.01', -0.01],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['the string "5"', '5'],
    ['null', null],
    ['undefined', undefined],
    ['an object', { amount: 5 }],
    ['100000000.01', 100_000_000.01],
    ['100000001', 100_000_001],
    ['1e21', 1e21],
    ['1e-7', 1e-7],
    ['5e-324', 5e-324],
  ];
  for (const [what, value] of rows) {
    const result = naira_to_kobo(value);
    t.equal(result.ok, false, `${what} is refused`);
    if (!result.ok) t.ok(result.reason.length > 0, `${what} is refused with a reason`);
  }
});

t.test('kobo_to_naira prints every integer kobo amount from 0 to 100,000 as its exact decimal', async (t) => {
  let wrong_text = 0;
  let wrong_round_trip = 0;
  let first_wrong: string | null = null;
  for (let kobo = 0; kobo <= 100_000; kobo++) {
    const whole = Math.floor(kobo / 100);
    const cents = kobo % 100;
    // The decimal written by hand: no trailing zero after the point, no point for whole naira.
    const expected = cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
    const naira = kobo_to_naira(kobo);
    const text = JSON.stringify(naira);
    if (text !== expected) {
      wrong_text++;
      first_wrong ??= `${kobo} kobo printed as ${text}, expected ${expected}`;
    }
    const back = naira_to_kobo(naira);
    if (!back.ok || back.kobo !== kobo) {
      wrong_round_trip++;
      first_wrong ??= `${kobo} kobo came back as ${JSON.stringify(back)}`;
    }
  }
  t.equal(wrong_text, 0, `every amount prints as its decimal${first_wrong === null ? '' : ` (first: ${first_wrong})`}`);
  t.equal(wrong_round_trip, 0, 'every amount parses back to the same kobo');
  t.equal(JSON.stringify(kobo_to_naira(10_000_000_000)), '100000000', 'the maximum prints as 100000000');
  t.equal(JSON.stringify(kobo_to_naira(9_999_999_999)), '99999999.99', 'the largest amount below it prints exactly');
});
