// A request body read as JSON and checked against its route's schema: content type, nesting depth,
// syntax and schema, in that order, each refused with its own error (docs/api.md "Errors").
import { api_error, type ApiError } from '../errors.js';
import { json_depth, json_depth_max } from './json-depth.js';
import type { CompiledRoute, RequestContext } from './route.js';

function is_json_type(content_type: string): boolean {
  const semi = content_type.indexOf(';');
  const base = (semi === -1 ? content_type : content_type.slice(0, semi)).trim().toLowerCase();
  return base === 'application/json';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Content type, JSON syntax and schema, in that order; sets ctx.body; null when the body is acceptable. */
export function parse_body(ctx: RequestContext, route: CompiledRoute): ApiError | null {
  const raw = ctx.raw_body!;
  if (raw.length === 0) {
    ctx.body = {};
  } else {
    if (!is_json_type(ctx.headers.content_type)) {
      return api_error('request.unsupported_media_type', `Content-Type must be application/json, got "${ctx.headers.content_type.slice(0, 100)}".`);
    }
    if (json_depth(raw) > json_depth_max) {
      return api_error('validation.failed', `The request is not valid: body must not nest deeper than ${json_depth_max} levels.`, {
        details: [{ field: 'body', message: `must not nest deeper than ${json_depth_max} levels` }],
      });
    }
    try {
      ctx.body = JSON.parse(utf8.decode(raw));
    } catch {
      return api_error('request.malformed_json');
    }
  }
  if (route.body_schema !== null) {
    const details = route.body_schema.check(ctx.body);
    if (details !== null) return api_error('validation.failed', 'The request is not valid: ' + details.map((d) => `${d.field} ${d.message}`).join('; ') + '.', { details });
  }
  return null;
}
