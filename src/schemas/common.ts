// Shared TypeBox schemas: the envelopes, money, timestamps and pagination of the public API.
import Type, { type TSchema, type TStringOptions } from 'typebox';

/**
 * What free text in a request may not hold: C0 and C1 control characters (NUL, escape sequences for
 * terminals and logs), the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069: "\u202eevil.exe" shows as "exe.live") and unpaired surrogate
 * halves (not Unicode text: stored as U+FFFD, so two different names would become one). The pattern is
 * compiled with the u flag by TypeBox, where [\ud800-\udfff] matches only an unpaired half.
 */
export const free_text_forbidden = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
export const free_text_pattern = `^[^${free_text_forbidden}]*$`;
export const free_text_rule = 'without control characters, bidirectional overrides or unpaired surrogates';

/**
 * A free-text field of a request (names, descriptions, URLs, codes): every one refuses the characters
 * above with 400 validation.failed naming the field. The message says what the field is and the rule.
 */
export function FreeText(options: TStringOptions & { errorMessage?: string } = {}) {
  const what = options.errorMessage ?? (options.maxLength !== undefined ? `must be a string of at most ${options.maxLength} characters` : 'must be a string');
  return Type.String({ ...options, pattern: free_text_pattern, errorMessage: `${what}, ${free_text_rule}` });
}

export const Naira = Type.Number({ minimum: 0, description: 'NGN amount with at most 2 decimal places' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with microseconds' });
export const EnvironmentName = Type.Enum(['live', 'test'], { description: 'live (real money) or test (sandbox)' });
export const Network = Type.Enum(['mtn', 'airtel', 'glo', '9mobile']);

export const Pagination = Type.Object({
  total: Type.Integer(),
  per_page: Type.Integer(),
  current_page: Type.Integer(),
  last_page: Type.Integer(),
});

export const ErrorBody = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({
    code: Type.String({ description: 'stable, permanent code (docs/api.md "Errors")' }),
    message: Type.String({ description: 'human text; may change' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    reference: Type.Optional(Type.String({ description: 'transaction.failed: the refunded order' })),
  }),
  request_id: Type.String(),
});

export function success_envelope(data: TSchema, with_message = false): TSchema {
  return Type.Object({
    success: Type.Literal(true),
    ...(with_message ? { message: Type.String() } : {}),
    data,
    request_id: Type.String(),
  });
}

/** Query parameters of list endpoints: per_page default 20, max 100; page default 1 (docs/spec.md section 8). */
export const page_query = {
  per_page: { schema: Type.Integer({ minimum: 1, maximum: 100, default: 20 }), description: 'items per page (default 20, max 100)' },
  page: { schema: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }), description: 'page number (default 1, max 1,000,000; past the last page the list is empty)' },
};
