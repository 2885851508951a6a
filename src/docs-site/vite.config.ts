// Build of the documentation site served at /docs (docs/api.md "Dashboard and documentation", point 3): a getting-started
// page and the API reference, which renders the generated /v1/openapi.json with Swagger UI from the
// swagger-ui-dist npm package. The viewer's prebuilt bundle is copied as a fingerprinted asset (the
// `?url` import in src/reference.ts), not rebundled: that keeps the build fast and the file as its
// authors shipped it. Everything is served from this server; no CDN.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const swagger_dir = new URL('../../node_modules/swagger-ui-dist/', import.meta.url);

/**
 * Swagger UI is Apache-2.0: its licence, notice and the third-party notices its bundle points to
 * ("see swagger-ui-bundle.js.LICENSE.txt") travel with the copy we serve.
 */
function swagger_licences(): Plugin {
  return {
    name: 'billvend-swagger-licences',
    apply: 'build',
    generateBundle() {
      const files: [string, string][] = [
        ['licenses/swagger-ui-LICENSE.txt', 'LICENSE'],
        ['licenses/swagger-ui-NOTICE.txt', 'NOTICE'],
        ['assets/swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui-bundle.js.LICENSE.txt'],
      ];
      for (const [fileName, source] of files) this.emitFile({ type: 'asset', fileName, source: readFileSync(new URL(source, swagger_dir)) });
    },
  };
}

export default defineConfig({
  root: here,
  base: '/docs/',
  publicDir: 'public',
  logLevel: 'warn',
  plugins: [swagger_licences()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/public/docs', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    // Every browser that runs this site supports module preloading: no polyfill script.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    // The Swagger UI bundle is 1.7 MB as published; it is loaded only on the reference page.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        reference: fileURLToPath(new URL('reference.html', import.meta.url)),
      },
    },
  },
});
