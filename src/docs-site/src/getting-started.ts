// The getting-started page: the examples name this very server (the BASE line shows the address the
// page was loaded from), and each example has a copy button. Runs as an external module because the
// page's Content-Security-Policy forbids inline scripts.
import './docs.css';

const base_line = document.querySelector<HTMLElement>('[data-base-line]');
if (base_line !== null) base_line.textContent = (base_line.textContent ?? '').replace(/^export BASE=.*$/m, `export BASE=${location.origin}`);

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
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied;
}

for (const code of document.querySelectorAll<HTMLElement>('code.copyable')) {
  const pre = code.parentElement!;
  pre.classList.add('has-copy');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy-button';
  button.textContent = 'Copy';
  button.addEventListener('click', async () => {
    button.textContent = (await copy_text(code.textContent ?? '')) ? 'Copied ✓' : 'Select and copy';
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
  pre.appendChild(button);
}
