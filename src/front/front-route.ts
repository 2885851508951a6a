// A route as the front end holds it: compiled once at start-up with its body validator, the request
// headers it reads and its metrics.
import { compile_schema } from '../lib/validation.js';
import type { CompiledRoute, RouteDef } from './route.js';
import type { Metrics, RouteStats } from '../operator/metrics.js';

export interface FrontRoute extends CompiledRoute {
  needs: HeaderNeeds;
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
}

function header_needs(route: RouteDef): HeaderNeeds {
  return {
    session: route.auth === 'session' || route.path.startsWith('/dashboard/api/'),
    signature: route.raw_body === true,
    conditional: route.method === 'get' && route.auth === 'none',
    accept: route.reads_accept === true,
    funding_signatures: route.reads_funding_signatures === true,
  };
}

export const no_needs: HeaderNeeds = { session: false, signature: false, conditional: false, accept: false, funding_signatures: false };
