// How a JSON body is shaped, measured on its bytes before it is parsed: how deep it nests, and how many
// key/value pairs its objects hold (to find a duplicate key, which JSON.parse drops silently).

/** JSON bodies nest at most this deep: deeper ones are refused before they are parsed. */
export const json_depth_max = 32;

/** What one pass over a JSON text finds: the deepest nesting and the count of `name: value` pairs. */
export interface JsonShape {
  depth: number;
  pairs: number;
}

/**
 * The deepest nesting of arrays and objects in a JSON text and the number of key/value pairs in its
 * objects (every `:` outside a string separates one), scanning its bytes once (strings and their
 * escapes skipped). Refusing deep bodies before JSON.parse keeps recursion over request bodies (the
 * idempotency fingerprint) bounded: a 7 KiB body of 3,500 nested arrays overflowed the stack and
 * ended the process (regression: test/fuzz-routes.test.ts). The pairs are compared with the keys
 * JSON.parse kept (json_keys_count): fewer kept means a key was given twice.
 */
export function json_shape(raw: Buffer): JsonShape {
  let depth = 0;
  let deepest = 0;
  let pairs = 0;
  let in_string = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (in_string) {
      if (byte === 0x5c) i++; // backslash: skip the escaped byte
      else if (byte === 0x22) in_string = false;
    } else if (byte === 0x22) in_string = true;
    else if (byte === 0x3a) pairs++;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return { depth: deepest, pairs };
}

/** The deepest nesting of arrays and objects in a JSON text (json_shape's depth). */
export function json_depth(raw: Buffer): number {
  return json_shape(raw).depth;
}

/**
 * The keys of every object in a parsed JSON value, at any depth. Recursion is bounded by
 * json_depth_max: only a value whose text passed json_shape is walked.
 */
export function json_keys_count(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += json_keys_count(value[i]);
    return count;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) count += 1 + json_keys_count(record[key]);
  return count;
}

/**
 * Whether a JSON text that JSON.parse read into `value` gave a key twice in one object, at any depth
 * (`{"amount":1,"amount":2}`): JSON.parse keeps the last silently, while a proxy or a partner may
 * read the first, so such a body is refused (docs/api.md "Errors", request.malformed_json).
 */
export function json_has_duplicate_key(shape: JsonShape, value: unknown): boolean {
  return json_keys_count(value) !== shape.pairs;
}
