// Serves the built browser side (dist/public: the dashboard under /dashboard, the documentation site
// under /docs) from memory, loaded once at start-up, with correct content types, ETags and cache
// headers: fingerprinted assets are immutable for a year, pages are revalidated every time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestContext, RouteDef } from '../front/route.js';
import { error_reply, type Reply } from '../lib/reply.js';
import { api_error } from '../errors.js';
import { fail } from '../lib/assert.js';

export const public_dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
/** The whole built site is held in memory; more than this is a build mistake. */
export const static_bytes_max = 64 * 1024 * 1024;

const content_types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
};

/** Pages may run only our own scripts and talk only to this server. */
export const page_security_headers: [string, string][] = [
  ['Content-Security-Policy', "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
];

interface StaticFile {
  body: Buffer;
  content_type: string;
  etag: string;
  immutable: boolean;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
}

export class StaticSite {
  private readonly files = new Map<string, StaticFile>();

  constructor(root = public_dir) {
    if (!existsSync(root)) return;
    const paths: string[] = [];
    walk(root, paths);
    let bytes = 0;
    for (const path of paths) {
      const body = readFileSync(path);
      bytes += body.length;
      if (bytes > static_bytes_max) fail(`the built site is larger than ${static_bytes_max} bytes`);
      const url = '/' + relative(root, path).split('\\').join('/');
      this.files.set(url, {
        body,
        content_type: content_types[extname(path).toLowerCase()] ?? 'application/octet-stream',
        etag: '"' + createHash('sha256').update(body).digest('base64url').slice(0, 22) + '"',
        // Vite names built assets after their content (index-3fa9b1c2.js): they never change.
        immutable: /\/assets\//.test(url) && /[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(url),
      });
    }
  }

  get built(): boolean {
    return this.files.size > 0;
  }

  private reply(ctx: RequestContext, file: StaticFile): Reply {
    const headers: [string, string][] = [
      ['ETag', file.etag],
      ['Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache'],
      ...page_security_headers,
    ];
    if (ctx.headers.if_none_match === file.etag) return { status: 304, body: '', headers, content_type: file.content_type };
    return { status: 200, body: file.body, headers, content_type: file.content_type };
  }

  /** /dashboard and /docs; an unknown dashboard path gets the app's page (client-side routes). */
  serve(ctx: RequestContext, site: 'dashboard' | 'docs'): Reply {
    const path = ctx.url.replace(/\/+$/, '') || '/';
    if (path.startsWith('/dashboard/api/')) return error_reply(ctx.request_id, api_error('route.not_found', `No route ${ctx.method} ${ctx.url.slice(0, 100)}.`));
    const exact = this.files.get(path) ?? this.files.get(`${path}/index.html`) ?? this.files.get(`${path}.html`);
    if (exact !== undefined) return this.reply(ctx, exact);
    if (site === 'dashboard' && !/\.[a-z0-9]+$/i.test(path)) {
      const app = this.files.get('/dashboard/index.html');
      if (app !== undefined) return this.reply(ctx, app);
    }
    if (!this.built) {
      return error_reply(ctx.request_id, api_error('route.not_found', 'The browser side is not built: run `npm run build`.'));
    }
    return error_reply(ctx.request_id, api_error('route.not_found', `No page ${ctx.url.slice(0, 100)}.`));
  }

  routes(): RouteDef[] {
    const make = (path: string, site: 'dashboard' | 'docs'): RouteDef => ({
      method: 'get',
      path,
      auth: 'none',
      doc: { summary: `The ${site} pages`, tags: ['Browser'], hidden: true },
      handler: (ctx) => this.serve(ctx, site),
    });
    return [make('/dashboard', 'dashboard'), make('/dashboard/*', 'dashboard'), make('/docs', 'docs'), make('/docs/*', 'docs'), {
      method: 'get',
      path: '/',
      auth: 'none',
      doc: { summary: 'Front page: redirects to the documentation', tags: ['Browser'], hidden: true },
      handler: () => ({ status: 302, body: '', headers: [['Location', '/docs/']], content_type: 'text/plain' }),
    }];
  }
}
