// Running a form's or a button's action: one hook that marks it busy while it runs (the button
// disables itself and says what it is doing), clears the previous error, and keeps the new one for the
// page's ErrorBanner. Errors that are not API answers (a network failure) become internal.error.
import { useCallback, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export interface Action {
  busy: boolean;
  error: ApiError | null;
  /** A refusal found before calling the API (two PINs that differ). */
  set_error(error: ApiError | null): void;
  /** Runs `work`, busy meanwhile; resolves once it has finished either way (a failure becomes `error`). */
  run(work: () => Promise<void>): Promise<void>;
}

export function use_action(): Action {
  const [busy, set_busy] = useState(false);
  const [error, set_error] = useState<ApiError | null>(null);
  const run = useCallback(async (work: () => Promise<void>) => {
    set_busy(true);
    set_error(null);
    try {
      await work();
    } catch (failure) {
      set_error(failure instanceof ApiError ? failure : new ApiError(0, 'internal.error', String(failure)));
    } finally {
      set_busy(false);
    }
  }, []);
  return { busy, error, set_error, run };
}
