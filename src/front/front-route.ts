// A route as the front end holds it: compiled once at start-up with its body validator, the request
// headers it reads, the headers its JSON answers carry and its metrics.
import { compile_schema } from '../lib/validation.js';
import type { CompiledRoute, RouteDef } from './route.js';
import type { Metrics, RouteStats } from '../operator/metrics.js';
import { answers_browser, api_header_block, browser_header_block, type JsonHeaderBlock } from './security-headers.js';

export interface FrontRoute extends CompiledRoute {
  needs: HeaderNeeds;
  /** The headers of its JSON answers: the API's, or the browser's for the dashboard (security-headers.ts). */
  json_headers: JsonHeaderBlock;
  stats: RouteStats;
}

export function compile_routes(server: string, metrics: Metrics, routes: RouteDef[]): FrontRoute[] {
  return routes.map((route) => {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    return {
      ...route,
      name,
      param_names: route.path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1)),
      body_schema: route.body === undefined ? null : compile_schema(route.body),
      needs: header_needs(route),
      json_headers: route.auth === 'session' || answers_browser(route.path) ? browser_header_block : api_header_block,
      stats: metrics.route_stats(server, name),
    };
  });
}

/** Which request headers a route reads, beyond the ones every request needs. */
export interface HeaderNeeds {
  session: boolean;
  signature: boolean;
  conditional: boolean;
  /** Accept: the receipts choose HTML or PDF by it. */
  accept: boolean;
  /** The funding providers' signature headers (POST /callbacks/funding/{provider}). */
  funding_signatures: boolean;
  /**
   * Billvend-Account: an API key acting for one of its account's agents (docs/api.md "Acting for an
   * agent"), or a dashboard session reading its agent's orders (dashboard/session-acting.ts).
   */
  acting: boolean;
}

function header_needs(route: RouteDef): HeaderNeeds {
  return {
    session: route.auth === 'session' || route.path.startsWith('/dashboard/api/'),
    signature: route.raw_body === true,
    conditional: route.method === 'get' && route.auth === 'none',
    accept: route.reads_accept === true,
    funding_signatures: route.reads_funding_signatures === true,
    acting: route.auth === 'api_key' || route.auth === 'session',
  };
}

export const no_needs: HeaderNeeds = { session: false, signature: false, conditional: false, accept: false, funding_signatures: false, acting: false };
