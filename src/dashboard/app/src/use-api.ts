// Loading data for a page: one hook that calls the API, tracks loading and errors, ignores answers
// that arrive after the page asked for something else, and can refresh itself while something is
// still moving (an order in processing, a webhook delivery being retried).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, type CallOptions } from './api.js';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  /** True until the first answer, and again after reload() until its answer. */
  loading: boolean;
  reload(): void;
}

/**
 * GET `path` (null: nothing to load yet). `key` lists what the request depends on besides the path;
 * `refresh_ms` > 0 reloads quietly on that interval (the page decides when it is worth it).
 */
export function use_api<T>(path: string | null, options: CallOptions = {}, refresh_ms = 0): Loaded<T> {
  const [state, set_state] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({ data: null, error: null, loading: path !== null });
  const [generation, set_generation] = useState(0);
  const identity = JSON.stringify([path, options.environment ?? null, options.query ?? null]);
  const last_identity = useRef('');

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    // A new address starts from a clean slate; a reload of the same one keeps showing the old data.
    const fresh = last_identity.current !== identity;
    last_identity.current = identity;
    set_state((old) => ({ data: fresh ? null : old.data, error: null, loading: true }));
    get<T>(path, { ...options, signal: controller.signal }).then(
      (data) => set_state({ data, error: null, loading: false }),
      (error: unknown) => {
        if ((error as Error).name === 'AbortError') return;
        set_state((old) => ({ data: old.data, error: error instanceof ApiError ? error : new ApiError(0, 'internal.error', String(error)), loading: false }));
      },
    );
    return () => controller.abort();
  }, [identity, generation]);

  useEffect(() => {
    if (refresh_ms <= 0 || path === null) return;
    const timer = setInterval(() => {
      get<T>(path, options).then(
        (data) => set_state({ data, error: null, loading: false }),
        () => undefined, // a failed background refresh keeps what is shown; the next one may work
      );
    }, refresh_ms);
    return () => clearInterval(timer);
  }, [identity, refresh_ms]);

  const reload = useCallback(() => set_generation((n) => n + 1), []);
  return { ...state, reload };
}
