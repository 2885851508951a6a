// The random sources start() can be given (src/lib/random.ts): the CSPRNG-backed one a server uses and
// the seeded one for tests. Draws stay in their alphabet and range, and a seed repeats its draws.
import t from 'tap';
import { CryptoRandom, SeededRandom, type RandomSource } from '../src/lib/random.js';

const draws = 20_000;
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

for (const [name, make] of [['crypto', () => new CryptoRandom()], ['seeded', () => new SeededRandom(7)]] as [string, () => RandomSource][]) {
  t.test(`the ${name} source draws fractions in [0, 1) and text only from the alphabet asked for`, async (t) => {
    const random = make();
    let outside = 0;
    let sum = 0;
    for (let i = 0; i < draws; i++) {
      const f = random.fraction();
      if (!(f >= 0 && f < 1)) outside++;
      sum += f;
    }
    t.equal(outside, 0, 'no fraction outside [0, 1)');
    // A mean far from 1/2 would mean a broken generator (the standard error here is about 0.002).
    t.ok(Math.abs(sum / draws - 0.5) < 0.02, `the mean of ${draws} fractions is near 1/2 (${(sum / draws).toFixed(4)})`);
    const text = random.text(base62, 10_000);
    t.equal(text.length, 10_000, 'text has the length asked for');
    t.match(text, /^[0-9A-Za-z]+$/, 'text holds only characters of the alphabet');
    t.equal(new Set(text).size, 62, 'every character of the alphabet appears in 10,000 draws');
    t.equal(random.bytes(32).length, 32, 'bytes gives as many bytes as asked for');
  });
}

t.test('a seeded source repeats its draws for the same seed and differs for another', async (t) => {
  const a = new SeededRandom(42);
  const b = new SeededRandom(42);
  const c = new SeededRandom(43);
  const first = a.text(base62, 24);
  t.equal(b.text(base62, 24), first, 'the same seed gives the same text');
  t.not(c.text(base62, 24), first, 'another seed gives other text');
  t.equal(a.fraction(), b.fraction(), 'and the same fractions after it');
});

t.test('an alphabet the sampler cannot draw from without bias is refused', async (t) => {
  const random = new SeededRandom(1);
  t.throws(() => random.text('', 4), RangeError, 'an empty alphabet');
  t.throws(() => random.text('x'.repeat(257), 4), RangeError, 'an alphabet of more than 256 characters');
});
