// How deep a JSON body nests, measured on its bytes before it is parsed.

/** JSON bodies nest at most this deep: deeper ones are refused before they are parsed. */
export const json_depth_max = 32;

/**
 * The deepest nesting of arrays and objects in a JSON text, scanning its bytes once (strings and their
 * escapes skipped). Refusing deep bodies before JSON.parse keeps recursion over request bodies (the
 * idempotency fingerprint) bounded: a 7 KiB body of 3,500 nested arrays overflowed the stack and
 * ended the process (regression: test/fuzz-routes.test.ts).
 */
export function json_depth(raw: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let in_string = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (in_string) {
      if (byte === 0x5c) i++; // backslash: skip the escaped byte
      else if (byte === 0x22) in_string = false;
    } else if (byte === 0x22) in_string = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return deepest;
}
