// The ported-number table's memory per million numbers (docs/benchmarks.md "Phone lookup"): learns N random
// mobile numbers into src/services/ported-numbers.ts's table and reports its typed arrays' bytes and the
// process's ArrayBuffer growth per million, the time to learn them and the time of one lookup.
// Usage: npm run build && npx tsc -p bench/tsconfig.json && node --expose-gc dist/bench/ported-numbers-memory.js [numbers, default 1000000]

/** The table as built by `npm run build` (dist/services), beside this script's dist/bench. */
interface Table {
  size: number;
  bytes: number;
  set(phone: string, network: string | null): boolean;
  get(phone: string): string | null;
}
const built = (await import(new URL('../services/ported-numbers.js', import.meta.url).href)) as { PortedNumbers: new (max: number) => Table };
const { PortedNumbers } = built;
const networks = ['mtn', 'airtel', 'glo', '9mobile'];

const count = Number(process.argv[2] ?? 1_000_000);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc;

let seed = 12345;
function next(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed;
}

gc?.();
const buffers_before = process.memoryUsage().arrayBuffers;
const table = new PortedNumbers(count * 2);
const started = performance.now();
const phones: string[] = [];
for (let i = 0; table.size < count; i++) {
  const phone = `0${8_000_000_000 + (next() % 1_999_999_999)}`;
  if (i < 100_000) phones.push(phone);
  table.set(phone, networks[next() % 4]);
}
const learn_ms = performance.now() - started;
gc?.();
const buffers_after = process.memoryUsage().arrayBuffers;
const reads_started = performance.now();
let found = 0;
for (let round = 0; round < 10; round++) for (const phone of phones) if (table.get(phone) !== null) found++;
const read_ns = ((performance.now() - reads_started) * 1e6) / (phones.length * 10);

const per_million = (bytes: number) => (bytes * 1_000_000) / count;
console.log(JSON.stringify({
  numbers: table.size,
  table_bytes: table.bytes,
  table_mib_per_million: Number(mib(per_million(table.bytes))),
  array_buffers_growth_mib_per_million: Number(mib(per_million(buffers_after - buffers_before))),
  bytes_per_number: Number((table.bytes / table.size).toFixed(2)),
  learn_ms: Math.round(learn_ms),
  lookup_ns: Math.round(read_ns),
  lookups_found: found,
}, null, 2));
