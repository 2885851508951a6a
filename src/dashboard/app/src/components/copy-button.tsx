// Copies a secret or a token to the clipboard. The Clipboard API needs a secure context (HTTPS or
// localhost); elsewhere the older execCommand path copies from a hidden text area.
import { useEffect, useState } from 'preact/hooks';

async function copy_text(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the older way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, set_state] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => set_state('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button type="button" class="button button-small" onClick={async () => set_state((await copy_text(text)) ? 'copied' : 'failed')} aria-live="polite">
      {state === 'copied' ? 'Copied ✓' : state === 'failed' ? 'Copy failed: select and copy by hand' : label}
    </button>
  );
}
