// A secret shown once (an API key, a webhook secret): the server never shows it again, so the panel
// says so, offers a copy button, and disappears for good when the reseller closes it.
import { CopyButton } from './copy-button.js';

export function SecretReveal({ title, secret, on_done }: { title: string; secret: string; on_done: () => void }) {
  return (
    <section class="secret-panel" aria-labelledby="secret-title" data-testid="secret-panel">
      <h3 id="secret-title">{title}</h3>
      <p>Copy it now and keep it somewhere safe. It is shown only once: after you close this panel nobody, including billvend, can show it again. A lost secret must be replaced.</p>
      <div class="secret-row">
        <code class="secret-value" data-testid="secret-value">{secret}</code>
        <CopyButton text={secret} />
      </div>
      <button type="button" class="button button-primary" onClick={on_done}>
        I have saved it
      </button>
    </section>
  );
}
