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

/** Quiet reloads every `every_ms` for as long as `while_data` says the data is still moving. */
export interface Refresh<T> {
  every_ms: number;
  while_data: (data: T) => boolean;
}

/**
 * GET `path` (null: nothing to load yet) with the environment and query of `options`. With `refresh`,
 * the data reloads quietly while it is still moving; a failed quiet reload keeps what is shown.
 */
export function use_api<T>(path: string | null, options: CallOptions = {}, refresh: Refresh<T> | null = null): Loaded<T> {
  const identity = JSON.stringify([path, options.environment ?? null, options.query ?? null, options.account ?? null]);
  // `of`: the address the state belongs to. Preact runs effects after the browser has painted, so the
  // render that follows a change of address (another network chosen) still holds the old address's
  // answer until the effect below clears it: for that frame the hook answers "loading", never the old
  // data (a plan of the previous network could otherwise be picked and bought under the new one).
  const [state, set_state] = useState<{ of: string; data: T | null; error: ApiError | null; loading: boolean }>({ of: identity, data: null, error: null, loading: path !== null });
  const [generation, set_generation] = useState(0);
  const last_identity = useRef('');

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    // A new address starts from a clean slate; a reload of the same one keeps showing the old data.
    const fresh = last_identity.current !== identity;
    last_identity.current = identity;
    set_state((old) => ({ of: identity, data: fresh ? null : old.data, error: null, loading: true }));
    get<T>(path, { ...options, signal: controller.signal }).then(
      (data) => set_state({ of: identity, data, error: null, loading: false }),
      (error: unknown) => {
        if ((error as Error).name === 'AbortError') return;
        set_state((old) => ({ of: identity, data: old.data, error: error instanceof ApiError ? error : new ApiError(0, 'internal.error', String(error)), loading: false }));
      },
    );
    return () => controller.abort();
  }, [identity, generation]);

  const refresh_ms = refresh !== null && state.of === identity && state.data !== null && refresh.while_data(state.data) ? refresh.every_ms : 0;
  useEffect(() => {
    if (refresh_ms <= 0 || path === null) return;
    // An answer that arrives after the page moved on belongs to the old address: dropped.
    let current = true;
    const timer = setInterval(() => {
      get<T>(path, options).then(
        (data) => current && set_state({ of: identity, data, error: null, loading: false }),
        () => undefined, // a failed background refresh keeps what is shown; the next one may work
      );
    }, refresh_ms);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [identity, refresh_ms]);

  const reload = useCallback(() => set_generation((n) => n + 1), []);
  if (state.of !== identity) return { data: null, error: null, loading: path !== null, reload };
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
