// The agent's price list, edited by its parent (docs/api.md "Agents in the dashboard", "Agent pricing"):
// one row for each product the parent itself has a rate for, with that rate as the ceiling, and one for each
// rule the agent already has. A discount typed in a row is a rule, an empty row is none; Save replaces the
// whole list with PUT /agents/{id}/pricing, whose check is the API's own: a rule above the parent's rate is
// 400 validation.failed naming rules.N.rate_bp, shown next to the row that rule came from.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, type Agent, type AgentPriceRule, type Environment } from '../api.js';
import { use_api } from '../use-api.js';
import { use_action } from '../use-action.js';
import { provider_label, service_name } from '../format.js';
import { EmptyState, ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { FieldError } from './agents-page.js';

interface Product {
  service_type: string;
  network: string | null;
  disco: string | null;
  provider: string | null;
}

interface Row extends Product {
  /** The parent's own effective rate, bp: the most the agent may be given; null for a rule over every provider. */
  ceiling_bp: number | null;
  /** The discount as typed, in percent; '' is no rule. */
  text: string;
}

interface AccountPricing {
  rates: (Product & { rate_bp: number })[];
}

function key_of(p: { service_type: string; network?: string | null; disco?: string | null; provider?: string | null }): string {
  return [p.service_type, p.network ?? '', p.disco ?? '', p.provider ?? ''].join('|');
}

/** 250 → "2.50": basis points as a percentage, exactly (integers only, no float rounding). */
export function percent_of(bp: number): string {
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

/** "2.5" → 250: a percentage with at most 2 decimals as basis points, or null. */
function bp_of(text: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function product_name(p: Product): string {
  const narrow = provider_label(p);
  return narrow === '' ? `${service_name(p.service_type)} (every provider)` : `${service_name(p.service_type)} · ${narrow}`;
}

/** The rows: the parent's priced products in its /pricing order, then the agent's rules for any other product. */
function rows_of(rates: AccountPricing['rates'], rules: readonly AgentPriceRule[]): Row[] {
  const by_key = new Map(rules.map((rule) => [key_of(rule), rule]));
  const rows: Row[] = [];
  const shown = new Set<string>();
  for (const rate of rates) {
    const rule = by_key.get(key_of(rate));
    if (rate.rate_bp === 0 && rule === undefined) continue;
    rows.push({ service_type: rate.service_type, network: rate.network, disco: rate.disco, provider: rate.provider, ceiling_bp: rate.rate_bp, text: rule === undefined ? '' : percent_of(rule.rate_bp) });
    shown.add(key_of(rate));
  }
  for (const rule of rules) {
    if (shown.has(key_of(rule))) continue;
    rows.push({ service_type: rule.service_type, network: rule.network ?? null, disco: rule.disco ?? null, provider: rule.provider ?? null, ceiling_bp: null, text: percent_of(rule.rate_bp) });
  }
  return rows;
}

export function AgentPriceEditor({ agent, environment, on_saved }: { agent: Agent; environment: Environment; on_saved: () => void }) {
  const own = use_api<AccountPricing>('/pricing', { environment });
  const rules = agent.pricing?.rules ?? [];
  const rules_key = JSON.stringify(rules);
  const [rows, set_rows] = useState<Row[]>([]);
  /** The row each rule of the last save came from: rules.N's error shows by row sent[N]. */
  const [sent, set_sent] = useState<number[]>([]);
  const [saved, set_saved] = useState('');
  const action = use_action();
  useEffect(() => {
    if (own.data !== null) set_rows(rows_of(own.data.rates, rules));
  }, [own.data, rules_key]);

  const row_error = (index: number): string | null => {
    const error = action.error;
    if (error === null) return null;
    const rule = sent.indexOf(index);
    const detail = rule < 0 ? undefined : error.details.find((d) => d.field.startsWith(`rules.${rule}.`));
    return detail === undefined ? null : detail.message;
  };

  const save = (event: Event) => {
    event.preventDefault();
    set_saved('');
    const chosen = rows.flatMap((row, index) => (row.text.trim() === '' ? [] : [index]));
    const body: AgentPriceRule[] = [];
    for (const [n, index] of chosen.entries()) {
      const row = rows[index];
      const bp = bp_of(row.text);
      if (bp === null) {
        set_sent(chosen);
        const message = 'must be a percentage with at most 2 decimals, such as 2.5';
        action.set_error(new ApiError(400, 'validation.failed', `The discount for ${product_name(row)} ${message}.`, [{ field: `rules.${n}.rate_bp`, message }]));
        return;
      }
      body.push({ service_type: row.service_type, network: row.network, disco: row.disco, provider: row.provider, rate_bp: bp });
    }
    return action.run(async () => {
      set_sent(chosen);
      await call('PUT', `/agents/${agent.id}/pricing`, { environment, body: { rules: body } });
      set_saved(body.length === 0 ? 'Price list cleared: the agent pays face value.' : `Price list saved: ${body.length} rule(s).`);
      on_saved();
    });
  };

  return (
    <form class="card form" onSubmit={save} aria-labelledby="agent-prices-title" data-testid="agent-price-editor">
      <h2 id="agent-prices-title">Prices</h2>
      <p class="muted small">
        The agent's discount off face value on each product. It can be at most your own rate; you earn the difference on each of its purchases. Leave a row empty for no discount.
      </p>
      {saved && <Notice>{saved}</Notice>}
      <ErrorBanner error={action.error} />
      <ErrorBanner error={own.error} on_retry={own.reload} />
      {own.loading && own.data === null && <Loading label="Loading your rates…" />}
      {own.data !== null && rows.length === 0 && <EmptyState title="You have no discount to pass on: every product is at face value for you." />}
      {rows.length > 0 && (
        <table class="table table-cards" data-testid="agent-prices-table">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col" class="num">Your rate</th>
              <th scope="col">Agent's discount (%)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const message = row_error(index);
              const error_id = `agent-rule-${index}-error`;
              return (
                <tr key={key_of(row)} data-product={key_of(row)}>
                  <td data-label="Product">{product_name(row)}</td>
                  <td data-label="Your rate" class="num">{row.ceiling_bp === null ? '–' : `${percent_of(row.ceiling_bp)}%`}</td>
                  <td data-label="Agent's discount (%)" class="price-td">
                    <div class="price-cell">
                      <div class="price-input">
                        <input
                          name={`rate-${index}`}
                          inputMode="decimal"
                          size={6}
                          value={row.text}
                          aria-label={`Agent's discount for ${product_name(row)} (%)`}
                          aria-invalid={message === null ? undefined : true}
                          aria-describedby={message === null ? undefined : error_id}
                          disabled={agent.status === 'closed'}
                          onInput={(e) => {
                            const text = e.currentTarget.value;
                            set_rows((old) => old.map((r, i) => (i === index ? { ...r, text } : r)));
                          }}
                        />
                        {row.text !== '' && agent.status !== 'closed' && (
                          <button type="button" class="button button-small" aria-label={`Remove the discount for ${product_name(row)}`} onClick={() => set_rows((old) => old.map((r, i) => (i === index ? { ...r, text: '' } : r)))}>
                            Remove
                          </button>
                        )}
                      </div>
                      <FieldError id={error_id} message={message} />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {agent.status !== 'closed' && rows.length > 0 && (
        <button type="submit" class="button button-primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Save prices'}
        </button>
      )}
    </form>
  );
}
