// Build of the dashboard (docs/api.md "Dashboard and documentation", point 4): Preact compiled by Vite's own Oxc transform
// (no Babel preset needed for a production build), served by the API server from
// dist/public/dashboard under /dashboard/. Built files land in assets/ with content hashes, which
// src/dashboard/static-files.ts serves as immutable; index.html is revalidated on every load.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/dashboard/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: fileURLToPath(new URL('../../../dist/public/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The CSP forbids inline scripts and data: scripts; small assets may still be inlined as data:
    // images (img-src allows data:), but nothing is worth the trouble: keep every asset a file.
    assetsInlineLimit: 0,
    // Every browser that runs this app supports module preloading: no polyfill script.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    // One small app: a single chunk loads faster than a waterfall of lazy pages.
    chunkSizeWarningLimit: 200,
  },
  server: {
    // `npx vite -c src/dashboard/app/vite.config.ts` during development, with `npm start` running.
    proxy: {
      '/dashboard/api': 'http://localhost:8080',
      '/v1': 'http://localhost:8080',
    },
  },
});
