// Coloured status labels for orders, wallet entries, keys and webhook deliveries.

const tones: Record<string, string> = {
  delivered: 'good',
  successful: 'good',
  credit: 'good',
  reversal: 'info',
  processing: 'warn',
  pending: 'warn',
  failed: 'bad',
  refused: 'bad',
  dead: 'bad',
  debit: 'neutral',
  cancelled: 'neutral',
  disabled: 'bad',
  enabled: 'good',
  live: 'live',
  test: 'test',
  active: 'good',
  suspended: 'warn',
  closed: 'neutral',
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span class={`badge badge-${tones[status] ?? 'neutral'}`} data-status={status}>
      {label ?? status}
    </span>
  );
}

/** An HTTP status code of a webhook attempt, green for 2xx, red otherwise; "no answer" for none. */
export function HttpCode({ code }: { code: number | null }) {
  if (code === null) return <span class="badge badge-bad">no answer</span>;
  return <span class={`badge ${code >= 200 && code < 300 ? 'badge-good' : 'badge-bad'}`}>{code}</span>;
}
