// Request validation with TypeBox validators compiled once at start-up (docs/style.md "Request path").
// Errors become the spec's 400 validation.failed with error.details = [{field, message}] (docs/decisions.md).
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type { ErrorDetail } from '../errors.js';

export interface CompiledSchema {
  schema: TSchema;
  /** null when valid, else one detail per offending field. */
  check(value: unknown): ErrorDetail[] | null;
}

function schema_at(root: unknown, schema_path: string): unknown[] {
  // Walks "#/properties/e/anyOf/0" and returns every schema on the way, outermost first.
  const out: unknown[] = [root];
  let node: any = root;
  for (const part of schema_path.replace(/^#\/?/, '').split('/').filter((p) => p !== '')) {
    if (node === undefined || node === null) break;
    node = node[part];
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) out.push(node);
  }
  return out;
}

function field_name(instance_path: string): string {
  return instance_path.replace(/^\//, '').replaceAll('/', '.');
}

export function compile_schema(schema: TSchema): CompiledSchema {
  const validator = Compile(schema);
  return {
    schema,
    check(value: unknown): ErrorDetail[] | null {
      if (validator.Check(value)) return null;
      const by_field = new Map<string, string>();
      for (const error of validator.Errors(value)) {
        if (error.keyword === 'required') {
          const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
          const prefix = field_name(error.instancePath);
          for (const name of missing) {
            const field = prefix === '' ? name : `${prefix}.${name}`;
            if (!by_field.has(field)) by_field.set(field, 'is required');
          }
          continue;
        }
        const field = field_name(error.instancePath) || 'body';
        if (by_field.has(field)) continue;
        // The innermost schema on the path that carries an errorMessage speaks for the field.
        const trail = schema_at(schema, error.schemaPath);
        let message: string | undefined;
        for (let i = trail.length - 1; i >= 0 && message === undefined; i--) {
          const node = trail[i] as { errorMessage?: string };
          if (typeof node.errorMessage === 'string') message = node.errorMessage;
        }
        if (message === undefined && error.keyword === 'enum') {
          const allowed = (trail[trail.length - 1] as { enum?: unknown[] }).enum ?? [];
          message = `must be one of: ${allowed.join(', ')}`;
        }
        if (message === undefined && error.keyword === 'type' && field === 'body') message = 'must be a JSON object';
        by_field.set(field, message ?? error.message);
      }
      if (by_field.size === 0) by_field.set('body', 'is not valid');
      return [...by_field].map(([field, message]) => ({ field, message }));
    },
  };
}
