// The last 30 days as stacked bars, one per Lagos day, one colour per service: hand-drawn SVG (no
// charting library: 30 bars and a few grid lines do not need one). The SVG scales to its card through
// its viewBox; each bar carries a <title> with the day's figures, and the chart's own title sums up
// the period for screen readers.
import { Fragment } from 'preact';
import { naira, service_name, service_types } from '../format.js';

/** A family as the trend names it: the server's days carry one figure per family on sale. */
export type TrendService = string;

export interface TrendDay {
  date: string;
  spend: Record<TrendService, number>;
  orders: Record<TrendService, number>;
}

/** A colour per family, in the API's order; a family beyond these takes the next of the palette. */
const palette = ['#0b6e4f', '#2f6fc1', '#d49400', '#8a4fc8', '#c2410c', '#0e7490', '#be185d', '#4d7c0f', '#6b7280'];

/** The families of the trend, from the server's answer (every day carries every family). */
export function trend_services(days: readonly TrendDay[]): { key: TrendService; label: string; colour: string }[] {
  const keys = days.length > 0 ? Object.keys(days[0].orders) : service_types();
  return keys.map((key, index) => ({ key, label: service_name(key), colour: palette[index % palette.length] }));
}

const width = 640;
const height = 200;
const left = 60;
const right = 30;
const bottom = 28;
const top = 10;
const plot_height = height - bottom - top;

const day_label = new Intl.DateTimeFormat('en-NG', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const compact_naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', notation: 'compact', maximumFractionDigits: 1 });

/** A round axis top at or above `max`: 1, 2 or 5 times a power of ten. */
function nice_top(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export function TrendChart({ days, metric, title }: { days: TrendDay[]; metric: 'spend' | 'orders'; title: string }) {
  const services = trend_services(days);
  const value_of = (day: TrendDay, service: TrendService) => (metric === 'spend' ? day.spend[service] : day.orders[service]) ?? 0;
  const total_of = (day: TrendDay) => services.reduce((sum, s) => sum + value_of(day, s.key), 0);
  const totals = days.map(total_of);
  const axis_top = nice_top(Math.max(0, ...totals));
  const format = (value: number) => (metric === 'spend' ? naira(value) : String(value));
  const axis_format = (value: number) => (metric === 'spend' ? compact_naira.format(value) : String(value));
  const slot = (width - left - right) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const sum = totals.reduce((a, b) => a + b, 0);
  const summary = `${title}: ${format(metric === 'spend' ? Math.round(sum * 100) / 100 : sum)} over ${days.length} days${days.length > 0 ? `, ${day_label.format(Date.parse(days[0].date))} to ${day_label.format(Date.parse(days[days.length - 1].date))}` : ''}.`;
  const id = `trend-${metric}`;

  return (
    <figure class="trend">
      <figcaption class="trend-caption" id={`${id}-caption`}>
        {title}
      </figcaption>
      <svg class="trend-svg" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title`} data-testid={`trend-${metric}`}>
        <title id={`${id}-title`}>{summary}</title>
        {[0, 0.5, 1].map((fraction) => {
          const y = top + plot_height * (1 - fraction);
          return (
            <Fragment key={fraction}>
              <line x1={left} x2={width - right} y1={y} y2={y} class="trend-grid" />
              <text x={left - 8} y={fraction === 0 ? y : y + 5} class="trend-axis" text-anchor="end">
                {axis_format(axis_top * fraction)}
              </text>
            </Fragment>
          );
        })}
        {days.map((day, index) => {
          const x = left + index * slot + (slot - bar) / 2;
          let y = top + plot_height;
          const parts = services
            .filter((s) => value_of(day, s.key) > 0)
            .map((s) => {
              const h = (value_of(day, s.key) / axis_top) * plot_height;
              y -= h;
              return <rect key={s.key} x={x} y={y} width={bar} height={h} fill={s.colour} data-service={s.key} />;
            });
          const detail = services.filter((s) => value_of(day, s.key) > 0).map((s) => `${s.label} ${format(value_of(day, s.key))}`).join(', ');
          return (
            <g key={day.date} data-date={day.date} data-total={totals[index]}>
              <title>{`${day_label.format(Date.parse(day.date))}: ${format(totals[index])}${detail ? ` (${detail})` : ''}`}</title>
              {/* An invisible full-height hit area, so the tooltip shows on empty days too. */}
              <rect x={left + index * slot} y={top} width={slot} height={plot_height} fill="transparent" />
              {parts}
              {/* A label a week apart, counted back from today so that today is always named. */}
              {(days.length - 1 - index) % 7 === 0 ? (
                <text x={x + bar / 2} y={height - 6} class="trend-axis" text-anchor={index === days.length - 1 ? 'end' : 'middle'}>
                  {day_label.format(Date.parse(day.date))}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export function TrendLegend({ days }: { days: readonly TrendDay[] }) {
  return (
    <ul class="trend-legend" aria-label="Services" data-testid="trend-legend">
      {trend_services(days).map((s) => (
        <li key={s.key} data-service={s.key}>
          <span class="trend-swatch" style={{ background: s.colour }} aria-hidden="true" />
          {s.label}
        </li>
      ))}
    </ul>
  );
}
