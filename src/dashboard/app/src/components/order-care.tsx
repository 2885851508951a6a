// An open order's care on its page (docs/api.md "Order care"): how old it is, when it is expected to be
// final, and the Requery and Cancel buttons (POST /dashboard/api/orders/{reference}/requery and /cancel).
import { useEffect, useState } from 'preact/hooks';
import { call, type Environment, type Order } from '../api.js';
import { use_action } from '../use-action.js';
import { lagos_time } from '../format.js';
import { ErrorBanner, Notice } from './feedback.js';

/** "3 min 20 s", "2 h 5 min": an age or a time left, to the second under an hour. */
function span(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function OrderCare({ order, environment, reload, on_answer }: { order: Order; environment: Environment; reload: () => void; on_answer: (message: string) => void }) {
  const action = use_action();
  const [message, set_message] = useState<string | null>(null);
  const [now, set_now] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => set_now(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const act = (what: 'requery' | 'cancel') => action.run(async () => {
    const answer = await call<Order>('POST', `/orders/${encodeURIComponent(order.reference)}/${what}`, { environment });
    set_message(answer.message);
    on_answer(answer.message);
    reload();
  });
  const expected_ms = order.expected_final_at === null ? null : Date.parse(order.expected_final_at);
  return (
    <section class="card" aria-label="Order care" data-testid="order-care">
      <dl class="facts">
        <dt>Age</dt>
        <dd data-testid="order-age">{span(now - Date.parse(order.created_at))}</dd>
        <dt>Expected final by</dt>
        <dd data-testid="order-expected-final">
          {expected_ms === null ? '—' : `${lagos_time(order.expected_final_at!)} (${expected_ms > now ? `in ${span(expected_ms - now)}` : 'passed'})`}
        </dd>
      </dl>
      <div class="actions">
        <button type="button" class="button button-small button-primary" disabled={action.busy} onClick={() => act('requery')}>Requery now</button>
        {order.status === 'pending' && <button type="button" class="button button-small button-danger" disabled={action.busy} onClick={() => act('cancel')}>Cancel order</button>}
      </div>
      {message && <Notice kind="info">{message}</Notice>}
      <ErrorBanner error={action.error} />
    </section>
  );
}
