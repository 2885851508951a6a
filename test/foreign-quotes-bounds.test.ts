// The process-wide bound of international quotes (src/services/foreign-quotes.ts quotes_max, docs/api.md
// "Limits") at its edge. The per-account bound goes through the server in test/international; filling the
// whole map takes 100 accounts' worth of quotes, so it is held here on the class the server uses, on a
// manual clock: 100,000 quotes are held, the next is refused while they are valid, and once the oldest
// expire one makes room for each new quote, never more.
import t from 'tap';
import { ManualClock } from '../src/lib/clock.js';
import { SeededRandom } from '../src/lib/random.js';
import { ForeignQuotes, quote_ttl_ms, quotes_max, quotes_per_account_max } from '../src/services/foreign-quotes.js';

const quote_of = (account_id: number) => ({
  account_id,
  environment: 'test' as const,
  country: 'GH',
  currency: 'GHS',
  operator_id: '5',
  operator: 'Ghana MTN',
  product_type_id: '1',
  product_code: 'ghana-mtn-topup',
  product: 'Ghana MTN Top Up',
  fixed_price: false,
  foreign_amount_minor: 1050,
  rate: '118.5',
  amount_kobo: 1_244_250,
  commission_kobo: 0,
});

t.test('quotes are held up to 100,000 in all; the next is refused until the oldest expire', async (t) => {
  t.equal(quotes_max, 100_000, 'the bound is the documented 100,000');
  const clock = new ManualClock(Date.UTC(2026, 10, 28, 9));
  const quotes = new ForeignQuotes(clock, new SeededRandom(7));
  const accounts = quotes_max / quotes_per_account_max;
  // The first account's quotes are a minute older than the rest: they expire first.
  let held = 0;
  for (let a = 1; a <= accounts; a++) {
    for (let n = 0; n < quotes_per_account_max; n++) if (quotes.add(quote_of(a)) !== null) held++;
    if (a === 1) clock.advance(60_000);
  }
  t.equal(held, quotes_max, `${accounts} accounts hold ${quotes_per_account_max} quotes each: all ${quotes_max} held`);
  t.equal(quotes.size, quotes_max, 'the map holds exactly the bound');
  t.equal(quotes.add(quote_of(accounts + 1)), null, 'quote 100,001 (an account with none) is refused while every held quote is valid');
  clock.advance(quote_ttl_ms - 60_000);
  t.equal(quotes.add(quote_of(accounts + 1)), null, 'still refused at the instant the oldest expire (valid up to and including expires_at)');
  clock.advance(1);
  const made_room = quotes.add(quote_of(accounts + 1));
  t.not(made_room, null, '1 ms later the oldest have expired: a new quote is held');
  t.equal(quotes.size, quotes_max, 'one expired quote made room for it, no more were dropped: the map stays at its bound');
  for (let n = 1; n < quotes_per_account_max; n++) quotes.add(quote_of(accounts + 1));
  t.equal(quotes.size, quotes_max, 'each further quote takes the place of one expired quote');
  t.equal(quotes.add(quote_of(accounts + 1)), null, 'and the new account stops at its own bound of 1,000');
  const other = quotes.add(quote_of(accounts + 2));
  t.equal(other, null, 'with the first account\'s 1,000 expired quotes all replaced, the next (valid quotes only left) is refused');
  clock.advance(60_000);
  t.not(quotes.add(quote_of(accounts + 2)), null, 'once the next minute\'s quotes expire, quotes are held again');
});
