// Previous / next for paginated lists (the API's pagination object).
import type { Pagination } from '../api.js';

export function Pager({ pagination, on_page }: { pagination: Pagination; on_page: (page: number) => void }) {
  if (pagination.last_page <= 1 && pagination.current_page <= 1) return null;
  const { current_page, last_page, total } = pagination;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="button button-small" disabled={current_page <= 1} onClick={() => on_page(current_page - 1)}>
        ← Newer
      </button>
      <span>
        Page {current_page} of {last_page} · {total.toLocaleString('en-NG')} in all
      </span>
      <button type="button" class="button button-small" disabled={current_page >= last_page} onClick={() => on_page(current_page + 1)}>
        Older →
      </button>
    </nav>
  );
}
