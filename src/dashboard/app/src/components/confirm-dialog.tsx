// Confirmation before an irreversible change (revoking a key, deleting a webhook endpoint), on the
// native <dialog>: it is modal, traps focus and closes on Escape without any library.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

interface ConfirmProps {
  title: string;
  children: ComponentChildren;
  confirm_label: string;
  /** Runs the change; a rejected promise keeps the dialog open and shows the message. */
  on_confirm: () => Promise<void>;
  on_close: () => void;
}

export function ConfirmDialog({ title, children, confirm_label, on_confirm, on_close }: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, set_busy] = useState(false);
  const [error, set_error] = useState('');

  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
  }, []);

  const confirm = async () => {
    set_busy(true);
    set_error('');
    try {
      await on_confirm();
      ref.current?.close();
      on_close();
    } catch (failure) {
      set_error((failure as Error).message);
      set_busy(false);
    }
  };

  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onClose={on_close} onCancel={(event) => busy && event.preventDefault()}>
      <h2 id="dialog-title">{title}</h2>
      <div class="dialog-body">{children}</div>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="dialog-actions">
        <button type="button" class="button" onClick={() => ref.current?.close()} disabled={busy}>
          Cancel
        </button>
        <button type="button" class="button button-danger" onClick={confirm} disabled={busy}>
          {busy ? 'Working…' : confirm_label}
        </button>
      </div>
    </dialog>
  );
}
