// The filter form of a list page (orders, wallet history): the filters live in the address, so that
// the back button, a reload or a shared link show the same list, and the CSV export follows them.
// The page names its fields; this form keeps the draft the reseller is typing until "Apply filters",
// and the Clear button empties them all. One form for every list, so they look and behave alike.
import { useEffect, useState } from 'preact/hooks';
import { lagos_today } from '../format.js';
import { href_of, navigate, type Place } from '../router.js';

export type FilterValues<N extends string> = Record<N, string>;

/** One control of the form: a free search, a choice from a list, or an Africa/Lagos calendar date. */
export type FilterField<N extends string> =
  | { kind: 'search'; name: N; label: string; placeholder: string; length_max: number }
  | { kind: 'select'; name: N; label: string; /** [value, label]; the first, with value '', means "all". */ choices: readonly (readonly [string, string])[] }
  | { kind: 'date'; name: N; label: string };

export interface Filters<N extends string> {
  /** What the address holds: the list shows these. */
  applied: FilterValues<N>;
  page: number;
  /** True when any filter is set (the empty state then says "no match" rather than "nothing yet"). */
  filtered: boolean;
  /** Goes to the list with these filters, on page `to_page` (the first by default). */
  apply(values: FilterValues<N>, to_page?: number): void;
}

/** The filters of the list at `path`, read from the address of `place`. */
export function use_filters<N extends string>(place: Place, path: string, names: readonly N[]): Filters<N> {
  const applied = Object.fromEntries(names.map((name) => [name, place.query.get(name) ?? ''])) as FilterValues<N>;
  return {
    applied,
    page: Math.max(1, Number(place.query.get('page')) || 1),
    filtered: names.some((name) => applied[name] !== ''),
    apply: (values, to_page = 1) => navigate(href_of(path, place.environment, { ...values, page: to_page > 1 ? to_page : undefined })),
  };
}

export function FilterForm<N extends string>({ label, fields, filters }: { label: string; fields: readonly FilterField<N>[]; filters: Filters<N> }) {
  const [draft, set_draft] = useState<FilterValues<N>>(filters.applied);
  // Back, forward or a link change the address: the form follows it.
  const applied_key = JSON.stringify(filters.applied);
  useEffect(() => set_draft(filters.applied), [applied_key]);
  const update = (name: N) => (event: Event) => set_draft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value });
  const none = Object.fromEntries(fields.map((field) => [field.name, ''])) as FilterValues<N>;

  return (
    <form
      class="card filters"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        filters.apply(draft);
      }}
    >
      {fields.map((field) => (
        <label key={field.name} class={field.kind === 'search' ? 'field field-search' : 'field'}>
          <span>{field.label}</span>
          {field.kind === 'search' && (
            <input type="search" name={field.name} maxLength={field.length_max} placeholder={field.placeholder} value={draft[field.name]} onInput={update(field.name)} />
          )}
          {field.kind === 'select' && (
            <select name={field.name} value={draft[field.name]} onChange={update(field.name)}>
              {field.choices.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          )}
          {field.kind === 'date' && <input type="date" name={field.name} value={draft[field.name]} max={lagos_today()} onInput={update(field.name)} />}
        </label>
      ))}
      <div class="filter-actions">
        <button type="submit" class="button button-primary">
          Apply filters
        </button>
        {filters.filtered && (
          <button type="button" class="button button-ghost" onClick={() => filters.apply(none)}>
            Clear
          </button>
        )}
      </div>
    </form>
  );
}
