// The API reference page: Swagger UI (swagger-ui-dist, as published on npm) rendering this server's
// OpenAPI document. The page's Content-Security-Policy allows only our own scripts, so the viewer's
// bundle is loaded from our assets by this module rather than by an inline script; it needs no
// eval and no inline script, only inline styles, which the policy allows.
import 'swagger-ui-dist/swagger-ui.css';
import './docs.css';
import bundle_url from 'swagger-ui-dist/swagger-ui-bundle.js?url';

interface SwaggerUIBundleGlobal {
  (options: Record<string, unknown>): unknown;
  presets: { apis: unknown };
}

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundleGlobal;
  }
}

function load_script(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(script);
  });
}

const root = document.getElementById('swagger-ui')!;

load_script(bundle_url).then(
  () => {
    const SwaggerUIBundle = window.SwaggerUIBundle!;
    root.textContent = '';
    root.removeAttribute('aria-busy');
    SwaggerUIBundle({
      url: '/v1/openapi.json',
      domNode: root,
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      // The public validator would be a call to another site; the document is checked by our tests.
      validatorUrl: null,
      // "Try it out" sends real requests with the key typed into Authorize: keep it one click away.
      tryItOutEnabled: false,
      persistAuthorization: false,
    });
  },
  (error: Error) => {
    root.removeAttribute('aria-busy');
    root.innerHTML = '';
    const message = document.createElement('p');
    message.className = 'docs-error';
    message.textContent = `The API reference could not load (${error.message}). The raw document is at /v1/openapi.json.`;
    root.appendChild(message);
  },
);
