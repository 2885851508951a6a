// How a command of the command line is declared, parsed (node:util parseArgs, strict) and explained.
// Every command accepts --help/-h; anything it does not declare is refused with exit status 2.
import { parseArgs } from 'node:util';

/** A mistake in the command line itself: stderr, then exit status 2 (docs/operations.md "Command line"). */
export class UsageError extends Error {
  constructor(message: string, readonly usage: string) {
    super(message);
  }
}

export interface OptionSpec {
  /** The flag without its dashes, kebab-case: `kyc-level`. */
  name: string;
  /** Placeholder of the value in the usage line. */
  value: string;
  summary: string;
  required?: boolean;
  /** A bare `--flag` means `--flag=1` (the 0/1 settings of `serve`, as flags_to_env reads them). */
  bare_means_one?: boolean;
  /** A switch that takes no value (`--json`): its value reads 'true' when given. */
  switch?: boolean;
}

export interface PositionalSpec {
  name: string;
  summary: string;
}

export interface CommandSpec {
  /** The words that select the command: ['key', 'revoke']. */
  words: string[];
  summary: string;
  /** Every positional is required; there are never more than these. */
  positionals: PositionalSpec[];
  options: OptionSpec[];
  /** More text under the option list. */
  notes?: string;
}

export interface ParsedCommand {
  help: boolean;
  positionals: string[];
  values: Record<string, string | undefined>;
}

function option_text(option: OptionSpec): string {
  const text = option.switch ? `--${option.name}` : `--${option.name} ${option.value}`;
  return option.required ? text : `[${text}]`;
}

export function usage_line(spec: CommandSpec): string {
  const parts = ['billvend', ...spec.words, ...spec.positionals.map((p) => `<${p.name}>`)];
  // The usage line names the required options; the rest are in the list below it.
  for (const option of spec.options) if (option.required) parts.push(option_text(option));
  if (spec.options.some((o) => !o.required)) parts.push('[options]');
  return parts.join(' ');
}

export function command_usage(spec: CommandSpec): string {
  const lines = [`usage: ${usage_line(spec)}`, '', spec.summary, ''];
  const rows: [string, string][] = [
    ...spec.positionals.map((p): [string, string] => [`<${p.name}>`, p.summary]),
    ...spec.options.map((o): [string, string] => [o.switch ? `--${o.name}` : `--${o.name} ${o.value}`, o.required ? `${o.summary} (required)` : o.summary]),
    ['-h, --help', 'print this help and exit'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  if (spec.notes !== undefined) lines.push('', spec.notes);
  return lines.join('\n') + '\n';
}

/**
 * Parses the arguments after the command's words. `--help`/`-h` wins over everything but an
 * unknown flag; required options and positionals are checked only when help was not asked for.
 */
export function parse_command(spec: CommandSpec, argv: readonly string[]): ParsedCommand {
  const usage = command_usage(spec);
  const options: Record<string, { type: 'string' } | { type: 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const option of spec.options) options[option.name] = option.switch ? { type: 'boolean' } : { type: 'string' };
  // A bare 0/1 flag (`--demo` followed by nothing or by another flag) means 1, as flags_to_env reads it.
  const args = argv.map((arg, i) => {
    const option = spec.options.find((o) => o.bare_means_one && arg === `--${o.name}`);
    const next = argv[i + 1];
    return option !== undefined && (next === undefined || next.startsWith('--')) ? `${arg}=1` : arg;
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(parse_error_text(error as Error & { code?: string }), usage);
  }
  const values: Record<string, string | undefined> = {};
  for (const option of spec.options) {
    const value = parsed.values[option.name];
    values[option.name] = value === true ? 'true' : value as string | undefined;
  }
  const help = parsed.values.help === true;
  if (!help) {
    if (parsed.positionals.length > spec.positionals.length) {
      throw new UsageError(`unexpected argument "${parsed.positionals[spec.positionals.length]}"`, usage);
    }
    const missing_positional = spec.positionals[parsed.positionals.length];
    if (missing_positional !== undefined) throw new UsageError(`<${missing_positional.name}> is required`, usage);
    const missing = spec.options.filter((o) => o.required && values[o.name] === undefined);
    if (missing.length > 0) throw new UsageError(`missing ${missing.map((o) => `--${o.name}`).join(', ')}`, usage);
  }
  return { help, positionals: parsed.positionals, values };
}

/** parseArgs' messages mention the API (`parseArgs`, `strict:false`); say it in the command line's terms. */
function parse_error_text(error: Error & { code?: string }): string {
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option "${option ?? error.message}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // Either a value is missing (`--name` at the end) or it starts with a dash and may be a flag.
      if (/argument missing/.test(error.message)) return `${option} needs a value`;
      if (/ambiguous/.test(error.message)) return `${option} needs a value; for a value that starts with "-" write ${option}=VALUE`;
      if (/does not take an argument/.test(error.message)) return `${option} takes no value`;
      return error.message;
    default:
      return error.message;
  }
}

// ---- Values ---------------------------------------------------------------------------------------

/** An integer flag such as --kyc-level; the server checks its range. */
export function integer_value(text: string | undefined, name: string, usage: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(text)) throw new UsageError(`--${name} must be an integer, got "${text}"`, usage);
  return Number(text);
}

/**
 * An NGN amount such as --amount 500.25. It goes to the API as a JSON number, so the text must be one
 * that a double holds exactly (at most 15 significant digits): a longer text would be rounded
 * silently on its way, and the server could no longer refuse what the operator actually typed.
 */
export function amount_value(text: string | undefined, name: string, usage: string): number | undefined {
  if (text === undefined) return undefined;
  const match = /^-?(\d+)(?:\.(\d+))?$/.exec(text);
  const digits = match === null ? '' : (match[1] + (match[2] ?? '')).replace(/^0+/, '');
  if (match === null || digits.length > 15) throw new UsageError(`--${name} must be an NGN amount such as 500 or 500.25, got "${text}"`, usage);
  return Number(text);
}

export function boolean_value(text: string | undefined, name: string, usage: string): boolean | undefined {
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw new UsageError(`--${name} must be true or false, got "${text}"`, usage);
  return text === 'true';
}

export function list_value(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function choice_value<T extends string>(text: string | undefined, name: string, choices: readonly T[], usage: string): T | undefined {
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`--${name} must be ${choices.join(' or ')}, got "${text}"`, usage);
  return text as T;
}

/** A path id such as <account_id>: a positive integer. */
export function id_value(text: string, name: string, usage: string): string {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`<${name}> must be a positive integer, got "${text}"`, usage);
  return text;
}
