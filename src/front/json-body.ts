// A request body read as JSON and checked against its route's schema: content type, nesting depth,
// syntax (a key given twice in one object included) and schema, in that order, each refused with its
// own error (docs/api.md "Errors").
import { api_error, invalid, invalid_fields, type ApiError } from '../errors.js';
import { json_has_duplicate_key, json_shape, json_depth_max } from './json-depth.js';
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
    const parsed = read_json(raw);
    if ('code' in parsed) return parsed;
    ctx.body = parsed.value;
  }
  if (route.body_schema !== null) {
    const details = route.body_schema.check(ctx.body);
    if (details !== null) return invalid_fields(details);
  }
  return null;
}

/** The message of a body refused for a key given twice (request.malformed_json). */
export const duplicate_key_message = 'The request body is not valid JSON: a key appears twice in one object.';

/**
 * A JSON text read: refused when it nests deeper than json_depth_max (validation.failed), is not UTF-8 or
 * not JSON, or gives a key twice in one object at any depth (request.malformed_json: JSON.parse keeps the
 * last silently, while a proxy or a partner may read the first). One pass over the bytes measures the
 * depth and counts the pairs; the parsed value's keys are then counted (about 1 us for 1 KiB).
 */
export function read_json(raw: Buffer): { value: unknown } | ApiError {
  const shape = json_shape(raw);
  if (shape.depth > json_depth_max) {
    return invalid('body', `must not nest deeper than ${json_depth_max} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(raw));
  } catch {
    return api_error('request.malformed_json');
  }
  if (shape.pairs > 0 && json_has_duplicate_key(shape, value)) return api_error('request.malformed_json', duplicate_key_message);
  return { value };
}
