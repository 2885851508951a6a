// A command's outcome as data (docs/style.md "Business outcomes are data"): its value, or why it did not
// happen. The engine's commands refuse with a Refusal (engine/refusal.ts Outcome); the webhooks' commands
// with an ApiError (errors.ts ApiOutcome). Both succeed the same way.
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}
