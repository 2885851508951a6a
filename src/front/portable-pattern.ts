// The patterns the OpenAPI document publishes, in the subset of regular expressions every mainstream engine
// accepts (ECMA-262 with or without the u flag, Python's re, Rust's regex, Go's and Google's RE2): an outside
// tester such as Schemathesis compiles them with its own engine to generate requests (docs/api.md "The OpenAPI
// document"). The server keeps validating with its own, stricter patterns (schemas/common.ts): it may check more
// than it publishes, never less. What changes on the way out:
// - look-around groups, which RE2 and Rust refuse, are left out: `^(?!__proto__$)[…]{1,40}$` is published as
//   `^[…]{1,40}$` (the server still refuses `__proto__`);
// - `\uXXXX` escapes, which RE2 refuses, become `\xXX` up to U+00FF (which every engine reads) and the character
//   itself above it (a JSON string carries it; the engine sees a plain character);
// - ranges of lone surrogates (`\ud800-\udfff`), which Python, Rust and RE2 refuse, are left out: well-formed
//   JSON text (UTF-8, RFC 8259) cannot carry a lone surrogate anyway, and the server refuses an escaped one.
import { fail } from '../lib/assert.js';

const look_around = /\(\?<?[!=][^()]*\)/g;
const unicode_range = /\\u([0-9a-fA-F]{4})-\\u([0-9a-fA-F]{4})/g;
const unicode_escape = /\\u([0-9a-fA-F]{4})/g;

function is_surrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff;
}

function portable_char(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : String.fromCharCode(code);
}

/** The pattern as published: the same language minus what the server checks on its own (see above). */
export function portable_pattern(pattern: string): string {
  const out = pattern
    .replace(look_around, '')
    .replace(unicode_range, (_, from: string, to: string) => {
      const [a, b] = [Number.parseInt(from, 16), Number.parseInt(to, 16)];
      if (is_surrogate(a) && is_surrogate(b)) return '';
      if (is_surrogate(a) || is_surrogate(b)) fail(`pattern ${pattern}: a range half in the surrogates cannot be published`);
      return `${portable_char(a)}-${portable_char(b)}`;
    })
    .replace(unicode_escape, (_, hex: string) => {
      const code = Number.parseInt(hex, 16);
      if (is_surrogate(code)) fail(`pattern ${pattern}: a lone surrogate cannot be published`);
      return portable_char(code);
    });
  // What is left must be plain: a construct not handled above is a pattern this function has to learn first.
  if (out.includes('(?') || out.includes('\\u') || /\\[1-9]/.test(out) || out.includes('[]') || out.includes('[^]')) {
    fail(`pattern ${pattern} has no portable form (published as ${out})`);
  }
  return out;
}

/** Every `pattern` and `patternProperties` key of a document rewritten by portable_pattern, in place. */
export function publish_portable_patterns(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) publish_portable_patterns(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  if (typeof object.pattern === 'string') object.pattern = portable_pattern(object.pattern);
  const keyed = object.patternProperties;
  if (keyed !== null && typeof keyed === 'object' && !Array.isArray(keyed)) {
    object.patternProperties = Object.fromEntries(Object.entries(keyed).map(([key, schema]) => [portable_pattern(key), schema]));
  }
  for (const value of Object.values(object)) publish_portable_patterns(value);
}
