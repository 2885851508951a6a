// Loading, empty and error states, shared by every page so that each looks and reads the same.
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty" data-testid="empty-state">
      <p class="empty-title">{title}</p>
      {children && <div class="empty-body">{children}</div>}
    </div>
  );
}

/** The server's error.message as it is, with the field details of a validation error. */
export function ErrorBanner({ error, on_retry }: { error: ApiError | null; on_retry?: () => void }) {
  if (error === null) return null;
  return (
    <div class="banner banner-error" role="alert" data-error-code={error.code}>
      <div>
        <p class="banner-text">{error.message}</p>
        {error.details.length > 0 && (
          <ul class="banner-details">
            {error.details.map((detail) => (
              <li key={detail.field}>
                <code>{detail.field}</code> {detail.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {on_retry && (
        <button type="button" class="button button-small" onClick={on_retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({ kind = 'success', children }: { kind?: 'success' | 'info' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`banner banner-${kind}`} role="status">
      <p class="banner-text">{children}</p>
    </div>
  );
}
