// VTpass's GET /api/service-variations?serviceID=… as a fake route, answering with the documented answers of
// test/fixtures/upstreams/vtpass/service-variations/ (one file per service, each with the page it comes
// from). A test may replace a service's answer (a variation gone, a price moved) starting from the
// documented one. `handle` is a plain node:http handler so the main VTpass fake can mount it; until then
// start_variations_server stands it alone on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const variations_fixture_dir = join(import.meta.dirname, '..', 'fixtures', 'upstreams', 'vtpass', 'service-variations');

export interface VariationsFixture {
  source: string;
  note: string;
  answer: { response_description: string; content: { ServiceName: string; serviceID: string; convinience_fee: string; variations?: any[]; varations?: any[] } };
}

/** Every documented answer, by serviceID (the file name). */
export function variation_fixtures(): Map<string, VariationsFixture> {
  const out = new Map<string, VariationsFixture>();
  for (const name of readdirSync(variations_fixture_dir)) {
    if (!name.endsWith('.json')) continue;
    out.set(name.slice(0, -'.json'.length), JSON.parse(readFileSync(join(variations_fixture_dir, name), 'utf8')) as VariationsFixture);
  }
  return out;
}

/** A documented answer's variations, whichever spelling the page uses. */
export function variations_of(answer: VariationsFixture['answer']): any[] {
  return answer.content.variations ?? answer.content.varations ?? [];
}

export interface VariationsRequest {
  service_id: string;
  headers: IncomingHttpHeaders;
}

export class VariationsRoute {
  /** What each serviceID answers: the documented answer unless a test replaced it. */
  readonly answers = new Map<string, VariationsFixture['answer']>();
  readonly requests: VariationsRequest[] = [];
  /** Services that answer HTTP 500 (an outage): the sync must change nothing for them. */
  readonly failing = new Set<string>();

  constructor(readonly api_key: string, readonly public_key: string) {
    for (const [service_id, fixture] of variation_fixtures()) this.answers.set(service_id, structuredClone(fixture.answer));
  }

  /** A service's answer with its variations changed by `edit` (on a copy of what it answers now). */
  edit(service_id: string, edit: (variations: any[]) => any[]): void {
    const answer = structuredClone(this.answers.get(service_id));
    if (answer === undefined) throw new Error(`no answer for ${service_id}`);
    const list = edit(variations_of(answer));
    if (answer.content.varations !== undefined) answer.content.varations = list;
    else answer.content.variations = list;
    this.answers.set(service_id, answer);
  }

  /** Handles GET /api/service-variations; false for any other request (the caller answers it). */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== '/api/service-variations') return false;
    const service_id = url.searchParams.get('serviceID') ?? '';
    this.requests.push({ service_id, headers: request.headers });
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    // The GET requests take api-key and public-key (vtpass.com/documentation, "Authentication").
    if (request.method !== 'GET') json(405, { response_description: 'METHOD NOT ALLOWED' });
    else if (request.headers['api-key'] !== this.api_key || request.headers['public-key'] !== this.public_key) json(401, { code: '087', response_description: 'INVALID CREDENTIALS' });
    else if (this.failing.has(service_id)) json(500, { response_description: 'SERVER ERROR' });
    else {
      const answer = this.answers.get(service_id);
      // A serviceID without a documented answer here (no page copied yet): not an answer the sync can read,
      // so it leaves that service as it is, rather than an empty list, which would say everything vanished.
      if (answer === undefined) json(200, { response_description: '011', content: { errors: `no documented answer for ${service_id} in the fake` } });
      else json(200, answer);
    }
    return true;
  }
}

/** The route alone on a port of 127.0.0.1, stopped at teardown. */
export async function start_variations_server(t: { teardown(fn: () => unknown): void }, route: VariationsRoute): Promise<{ base_url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (!route.handle(request, response)) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"response_description":"NOT FOUND"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { base_url: `http://127.0.0.1:${address.port}`, server };
}
