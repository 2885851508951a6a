// What `npm run bench:scale` writes (docs/benchmarks.md "Scale"): a Markdown table of every size and the
// cost curve as an SVG chart drawn by hand (no charting dependency): purchases per second on the left
// axis, server CPU µs per purchase on the right, one point per store size in the order run. Both carry
// the date and the machine, and say so when other work on the machine skewed the figures.
import type { ScaleReport, ScaleRow } from './scale.js';

/** Other work (cores) above which a row's figures count as skewed: the same bound as the bench's table. */
const other_cpu_cores_max = 0.2;

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function mib(bytes: number | null): string {
  return bytes === null ? '?' : `${count(Math.round(bytes / 1024 ** 2))} MiB`;
}

function seconds(ms: number | null, digits = 2): string {
  return ms === null ? '?' : `${(ms / 1000).toFixed(digits)} s`;
}

/** Whether other processes took enough CPU during any measured load to skew the figures. */
export function busy_machine(report: ScaleReport): boolean {
  return report.rows.some((r) => r.load?.other_cpu_cores != null && r.load.other_cpu_cores > other_cpu_cores_max) || report.load_average[0] > report.machine.cores;
}

function heading(report: ScaleReport): string[] {
  const { machine, settings } = report;
  const lines = [
    `billvend bench:scale — ${machine.date}`,
    `machine: ${machine.cpu_model}, ${machine.cores} cores, ${machine.ram_gib} GiB RAM; node ${machine.node}; load average at the end ${report.load_average.map((l) => l.toFixed(1)).join(' ')}`,
    `load: purchases (POST /v1/services/airtime, test keys, sandbox) over ${count(settings.load_accounts)} accounts in turn (fewer in a smaller store), ` +
      `${settings.connections} connections, ${settings.warmup_s} s warm-up + ${settings.duration_s} s measured`,
  ];
  if (busy_machine(report)) {
    lines.push('INDICATIVE ONLY: measured on a busy, shared machine (see "other cores"); rerun on a quiet one for figures to compare.');
  }
  return lines;
}

/** Purchases/s against the first size's (the empty store, when the sizes start with one). */
function ratio(row: ScaleRow, first: ScaleRow | undefined): string {
  const base = first?.load?.requests_per_s;
  const value = row.load?.requests_per_s;
  return base == null || value == null || base <= 0 ? '?' : `${(value / base).toFixed(2)} ×`;
}

function history_cells(row: ScaleRow): string[] {
  const h = row.history;
  return h === null ? ['?', '?'] : [`${h.warm.p50_ms} / ${h.warm.p99_ms}`, `${h.cold.p50_ms} / ${h.cold.p99_ms}`];
}

function row_cells(row: ScaleRow, first?: ScaleRow): string[] {
  const l = row.load;
  const size = `${row.size.label} (${count(row.size.accounts)} accounts, ${count(row.size.orders)} orders)`;
  if (row.failure !== null && l === null) {
    return [size, seconds(row.seed_ms, 1), mib(row.store_bytes), seconds(row.ready_ms), mib(row.rss_ready_bytes), 'failed', '', '', '', '', '', '', ''];
  }
  return [
    size,
    seconds(row.seed_ms, 1),
    mib(row.store_bytes),
    seconds(row.ready_ms),
    mib(row.rss_ready_bytes),
    l === null ? '?' : count(Math.round(l.requests_per_s)),
    ratio(row, first),
    l === null ? '?' : `${l.latency_p99_ms}`,
    l?.server_cpu_us_per_request == null ? '?' : l.server_cpu_us_per_request.toFixed(1),
    ...history_cells(row),
    mib(row.rss_after_load_bytes),
    l?.other_cpu_cores == null ? '?' : l.other_cpu_cores.toFixed(2),
  ];
}

export function render_scale_markdown(report: ScaleReport): string {
  const out = heading(report).map((line, i) => (i === 0 ? `## ${line}` : `${line}  `));
  out.push('');
  out.push('| store | seeding | disk | ready | RSS ready | purchases/s | × first | p99 ms | server CPU µs/purchase | history page p50 / p99 ms | cold page p50 / p99 ms | RSS after load | other cores |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of report.rows) out.push(`| ${row_cells(row, report.rows[0]).join(' | ')} |`);
  const notes: string[] = [];
  for (const row of report.rows) {
    if (row.failure !== null) notes.push(`- ${row.size.label}: FAILED: ${row.failure.split('\n')[0]}`);
    if (row.load !== null && row.load.non_2xx > 0) notes.push(`- ${row.size.label}: ${count(row.load.non_2xx)} purchases not answered 2xx: ${JSON.stringify(row.load.error_codes)}`);
  }
  if (notes.length > 0) out.push('', ...notes);
  out.push('', 'ready: from the process start until /readyz answers 200 (recovery: counters and open work; accounts are built from the store on first use). ' +
    'server CPU µs/purchase: from /proc/<pid>/stat over the measured window; it holds when other work shakes purchases/s. ' +
    '× first: purchases/s against the first size\'s. history page: GET /v1/transactions with a filter (service, status, both, ' +
    'recipient and status, failed), 20 a page, one request at a time over accounts spread across the store; cold: each account\'s first page, ' +
    'its actor built from the store by that request.');
  return out.join('\n') + '\n';
}

function escape_xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A round axis top above `value`: 1, 2 or 5 times a power of ten. */
export function nice_ceiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function render_scale_svg(report: ScaleReport): string {
  const width = 760;
  const height = 440;
  const left = 80;
  const right = 80;
  const top = 90;
  const bottom = 90;
  const plot_w = width - left - right;
  const plot_h = height - top - bottom;
  const ticks = 5;
  const rows = report.rows;
  const rps = rows.map((r) => r.load?.requests_per_s ?? null);
  const cpu = rows.map((r) => r.load?.server_cpu_us_per_request ?? null);
  const rps_top = nice_ceiling(Math.max(1, ...rps.filter((v): v is number => v !== null)) * 1.1);
  const cpu_top = nice_ceiling(Math.max(1, ...cpu.filter((v): v is number => v !== null)) * 1.1);
  // Points stand off both axes, so that their values do not sit on the axis labels.
  const inset = 50;
  const x = (i: number) => left + (rows.length === 1 ? plot_w / 2 : inset + (i * (plot_w - 2 * inset)) / (rows.length - 1));
  const y = (value: number, axis_top: number) => top + plot_h - (value / axis_top) * plot_h;
  const rps_colour = '#1f5fa8';
  const cpu_colour = '#c0561b';

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="24" font-size="15" font-weight="bold">billvend cost curve: purchases as the store grows</text>`);
  const [, machine_line] = heading(report);
  parts.push(`<text x="${left}" y="42" fill="#444">${escape_xml(`${report.machine.date} — ${machine_line.replace(/^machine: /, '')}`.slice(0, 120))}</text>`);
  if (busy_machine(report)) parts.push(`<text x="${left}" y="60" fill="#b00020" font-weight="bold">Indicative only: measured on a busy, shared machine</text>`);

  // Grid and both axes' labels.
  for (let i = 0; i <= ticks; i++) {
    const ty = top + plot_h - (i * plot_h) / ticks;
    parts.push(`<line x1="${left}" y1="${ty}" x2="${left + plot_w}" y2="${ty}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${left - 8}" y="${ty + 4}" text-anchor="end" fill="${rps_colour}">${count(Math.round((rps_top * i) / ticks))}</text>`);
    parts.push(`<text x="${left + plot_w + 8}" y="${ty + 4}" fill="${cpu_colour}">${count(Math.round((cpu_top * i) / ticks))}</text>`);
  }
  parts.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plot_h}" stroke="#333"/>`);
  parts.push(`<line x1="${left + plot_w}" y1="${top}" x2="${left + plot_w}" y2="${top + plot_h}" stroke="#333"/>`);
  parts.push(`<line x1="${left}" y1="${top + plot_h}" x2="${left + plot_w}" y2="${top + plot_h}" stroke="#333"/>`);
  parts.push(`<text transform="translate(20 ${top + plot_h / 2}) rotate(-90)" text-anchor="middle" fill="${rps_colour}">purchases per second</text>`);
  parts.push(`<text transform="translate(${width - 16} ${top + plot_h / 2}) rotate(90)" text-anchor="middle" fill="${cpu_colour}">server CPU µs per purchase</text>`);

  // One column per store size.
  rows.forEach((row, i) => {
    parts.push(`<line x1="${x(i)}" y1="${top + plot_h}" x2="${x(i)}" y2="${top + plot_h + 5}" stroke="#333"/>`);
    parts.push(`<text x="${x(i)}" y="${top + plot_h + 20}" text-anchor="middle">${escape_xml(`${count(row.size.accounts)} accounts`)}</text>`);
    parts.push(`<text x="${x(i)}" y="${top + plot_h + 36}" text-anchor="middle">${escape_xml(`${count(row.size.orders)} orders`)}</text>`);
    if (row.load === null) parts.push(`<text x="${x(i)}" y="${top + plot_h / 2}" text-anchor="middle" fill="#b00020">failed</text>`);
  });

  // The two curves, a line through the sizes that were measured and a dot with its value on each.
  const curve = (values: (number | null)[], axis_top: number, colour: string, digits: number, label_dy: number) => {
    const points = values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v, axis_top).toFixed(1)}`]));
    if (points.length > 1) parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    values.forEach((v, i) => {
      if (v === null) return;
      parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(v, axis_top).toFixed(1)}" r="4" fill="${colour}"/>`);
      parts.push(`<text x="${x(i).toFixed(1)}" y="${(y(v, axis_top) + label_dy).toFixed(1)}" text-anchor="middle" fill="${colour}">${v.toLocaleString('en-US', { maximumFractionDigits: digits })}</text>`);
    });
  };
  curve(rps, rps_top, rps_colour, 0, -10);
  curve(cpu, cpu_top, cpu_colour, 1, 18);

  // Legend.
  const legend_y = height - 22;
  parts.push(`<line x1="${left}" y1="${legend_y - 4}" x2="${left + 24}" y2="${legend_y - 4}" stroke="${rps_colour}" stroke-width="2.5"/>`);
  parts.push(`<text x="${left + 30}" y="${legend_y}">purchases/s (${report.settings.connections} connections)</text>`);
  parts.push(`<line x1="${left + 260}" y1="${legend_y - 4}" x2="${left + 284}" y2="${legend_y - 4}" stroke="${cpu_colour}" stroke-width="2.5"/>`);
  parts.push(`<text x="${left + 290}" y="${legend_y}">server CPU µs per purchase (/proc/&lt;pid&gt;/stat)</text>`);
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
