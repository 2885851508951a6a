// The operator API's authorization: a bearer token compared in constant time with ADMIN_TOKEN
// (docs/operations.md), on every route whose auth is 'operator'.
import { constant_time_equal } from '../lib/secrets.js';
import { api_error, type ApiError } from '../errors.js';
import type { RequestContext } from '../front/route.js';

export function operator_authorize(admin_token: string): (ctx: RequestContext) => ApiError | null {
  return (ctx) => {
    if (ctx.route?.auth !== 'operator') return null;
    const match = /^Bearer +(\S+) *$/i.exec(ctx.headers.authorization);
    if (match === null || !constant_time_equal(match[1], admin_token)) return api_error('operator.unauthorized');
    return null;
  };
}
