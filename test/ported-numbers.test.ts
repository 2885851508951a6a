// The ported-number table (src/services/ported-numbers.ts; docs/decisions.md "Ported numbers"): the compact hash
// table agrees with a Map through growth and removals (backward-shift deletion must never hide a number behind a
// hole), holds at most ported_numbers_max numbers (the edge: the last one in, the next refused, a held one still
// changed), and learns only what differs from the numbering plan.
import t from 'tap';
import fc from 'fast-check';
import { PortedNumbers } from '../src/services/ported-numbers.js';
import { prefix_network } from '../src/services/numbering-plan.js';
import { networks, type Network } from '../src/services/catalog.js';

const phone = (n: number) => `080${String(n).padStart(8, '0')}`;

t.test('the table answers as a Map does through any sequence of sets and removals', async (t) => {
  fc.assert(fc.property(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.option(fc.constantFrom(...networks), { nil: null })), { maxLength: 4000 }),
    (steps) => {
      const table = new PortedNumbers(1_000_000);
      const model = new Map<string, Network>();
      for (const [n, network] of steps) {
        table.set(phone(n), network);
        if (network === null) model.delete(phone(n));
        else model.set(phone(n), network);
      }
      if (table.size !== model.size) return false;
      for (let n = 0; n <= 3000; n++) if (table.get(phone(n)) !== (model.get(phone(n)) ?? null)) return false;
      return true;
    },
  ), { numRuns: 60 });
  t.pass('60 runs of up to 4000 steps agree with the Map');
});

t.test('ported_numbers_max: the last number fits, the next is refused, held numbers still change', async (t) => {
  const table = new PortedNumbers(3);
  t.ok(table.set(phone(1), 'glo') && table.set(phone(2), 'glo') && table.set(phone(3), 'airtel'), 'three numbers fit a bound of three');
  t.notOk(table.set(phone(4), 'mtn'), 'the fourth is refused');
  t.equal(table.get(phone(4)), null, 'and not held');
  t.equal(table.refused, 1, 'and counted');
  t.ok(table.set(phone(1), '9mobile'), 'a held number still changes');
  t.equal(table.get(phone(1)), '9mobile', 'to its new network');
  t.ok(table.set(phone(2), null), 'a removal frees a place');
  t.ok(table.set(phone(4), 'mtn'), 'which the next number takes');
  t.equal(table.size, 3, 'three numbers held');
});

t.test('numbers that are not 10-digit mobile numbers starting with 7, 8 or 9 are never held', async (t) => {
  const table = new PortedNumbers(10);
  for (const odd of ['01234567890', '0803123456', 'abc', '06012345678']) t.notOk(table.set(odd, 'mtn'), `${odd} is not held`);
  t.ok(table.set('09999999999', 'glo'), 'the highest mobile number fits in 32 bits');
  t.ok(table.set('07000000000', 'glo'), 'and the lowest');
  t.equal(table.get('09999999999'), 'glo', 'and reads back');
});

t.test('the numbering plan: a five-digit prefix wins over its four-digit one', async (t) => {
  t.equal(prefix_network('07025123456'), 'mtn', '07025 is MTN (formerly Visafone)');
  t.equal(prefix_network('07021234567'), null, '0702 is Smile: none of the four');
  t.equal(prefix_network('08091234567'), '9mobile', '0809 is 9mobile');
});
