// The filters of an order list, from its query string: one parser for the API's history and export
// (GET /v1/transactions, docs/api.md "History filters") and the dashboard's orders list and export. The two
// read the same filters under their own names and words (a dialect each, below); what they find is an
// OrderFilter (engine/account-orders.ts), answered by the same index.
import { invalid, type ApiError } from '../errors.js';
import type { OrderFilter } from '../engine/order-history.js';
import { service_type_names, service_types_text, type OrderStatus, type ServiceType } from '../engine/order-record.js';
import { lagos_day_end_ms, parse_date_days, parse_timestamp_us, timestamp_year_max, timestamp_year_min } from '../lib/time-format.js';
import { client_reference_pattern, client_reference_rule } from '../schemas/service-schemas.js';

/** How one list names its filters (the query parameters and their words). */
export interface OrderQueryDialect {
  /** The parameter naming the service: the API's `service_type`, the dashboard's `service`. */
  service_param: string;
  /** The status words taken, each to the status on the record. */
  statuses: Readonly<Record<string, OrderStatus>>;
  status_rule: string;
  /**
   * `from` and `to`: dates or ISO 8601 timestamps, as instants (`instants`: the API's); or dates only, as
   * Africa/Lagos days (`days`: the dashboard's, which also lets `to` come before `from`: nothing is found).
   */
  bounds: 'instants' | 'days';
  /** Whether `recipient` and `client_reference` (exact matches) are read: the API's. */
  exact_fields: boolean;
  /** Whether `q` (a reference or a part of a number, matched by the caller) is read: the dashboard's search. */
  search: boolean;
}

/**
 * The API's words: a delivered order is listed "successful" (the list's word) and is "delivered" on its
 * record, so the filter takes both (docs/api.md "History filters").
 */
export const api_order_query: OrderQueryDialect = {
  service_param: 'service_type',
  statuses: { pending: 'pending', processing: 'processing', successful: 'delivered', delivered: 'delivered', failed: 'failed' },
  status_rule: 'must be pending, processing, successful (or delivered, the same) or failed',
  bounds: 'instants',
  exact_fields: true,
  search: false,
};

/** The dashboard's words: the record's statuses, dates from its date pickers, and a search box. */
export const dashboard_order_query: OrderQueryDialect = {
  service_param: 'service',
  statuses: { pending: 'pending', processing: 'processing', delivered: 'delivered', failed: 'failed' },
  status_rule: 'must be pending, processing, delivered or failed',
  bounds: 'days',
  exact_fields: false,
  search: true,
};

export interface OrderQuery {
  filter: OrderFilter;
  /** The dashboard's search text, trimmed; null when absent (or not read). */
  q: string | null;
  /** The range's start and end (exclusive) as instants, when from and to were given as instants. */
  start_us: number | null;
  end_us: number | null;
  /** Where the range's length is measured to: a date's end (the next Lagos day's start) or the timestamp. */
  span_end_us: number | null;
}

/** Every recipient the services accept: phone (11 digits), meter (11 or 13), smartcard (10 to 12). */
const recipient_pattern = /^[0-9]{10,13}$/;
/** Longest search text. */
export const search_length_max = 64;

/** A date parameter: an Africa/Lagos day (days since the epoch), null when absent. */
export function day_param(text: string | null, field: string): number | null | ApiError {
  if (text === null || text === '') return null;
  const day = parse_date_days(text);
  if (day === null) return invalid(field, `must be a date YYYY-MM-DD that exists, from ${timestamp_year_min} to ${timestamp_year_max}`);
  return day;
}

/** `from` or `to` of the API: a date (a whole Africa/Lagos day) or an ISO 8601 timestamp; null when absent. */
function instant_param(text: string | null, field: 'from' | 'to'): { day: number } | { us: number } | null | ApiError {
  if (text === null || text === '') return null;
  if (text.length <= 10) {
    const day = parse_date_days(text);
    if (day !== null) return { day };
  } else if (text.length <= 40) {
    const us = parse_timestamp_us(text);
    if (us !== null) return { us };
  }
  return invalid(field, 'must be a date YYYY-MM-DD (an Africa/Lagos day) or an ISO 8601 timestamp such as 2026-11-24T09:30:00Z');
}

/** An order list's filters from its query string, every one optional; checked in the order they are listed. */
export function parse_order_query(params: URLSearchParams, dialect: OrderQueryDialect): OrderQuery | ApiError {
  const status_text = params.get('status');
  const service_text = params.get(dialect.service_param);
  let status: OrderStatus | null = null;
  if (status_text !== null && status_text !== '') {
    status = Object.hasOwn(dialect.statuses, status_text) ? dialect.statuses[status_text] : null;
    if (status === null) return invalid('status', dialect.status_rule);
  }
  if (service_text !== null && service_text !== '' && !(service_type_names as readonly string[]).includes(service_text)) {
    return invalid(dialect.service_param, `must be ${service_types_text}`);
  }
  const service = service_text ? service_text as ServiceType : null;
  let recipient: string | null = null;
  let client_reference: string | null = null;
  if (dialect.exact_fields) {
    recipient = params.get('recipient') || null;
    client_reference = params.get('client_reference') || null;
    if (recipient !== null && !recipient_pattern.test(recipient)) return invalid('recipient', 'must be a phone, meter or smartcard number of 10 to 13 digits');
    if (client_reference !== null && !client_reference_pattern.test(client_reference)) return invalid('client_reference', client_reference_rule);
  }
  let q: string | null = null;
  if (dialect.search) {
    const text = (params.get('q') ?? '').trim();
    if (text.length > search_length_max || !/^[\x21-\x7e]*$/.test(text)) return invalid('q', `must be a reference or a number of at most ${search_length_max} characters`);
    q = text === '' ? null : text;
  }
  if (dialect.bounds === 'days') {
    const from_day = day_param(params.get('from'), 'from');
    if (from_day !== null && typeof from_day === 'object') return from_day;
    const to_day = day_param(params.get('to'), 'to');
    if (to_day !== null && typeof to_day === 'object') return to_day;
    return { filter: { service, status, from_day, to_day }, q, start_us: null, end_us: null, span_end_us: null };
  }
  const from = instant_param(params.get('from'), 'from');
  if (from !== null && 'code' in from) return from;
  const to = instant_param(params.get('to'), 'to');
  if (to !== null && 'code' in to) return to;
  const start_us = from === null ? null : 'us' in from ? from.us : lagos_day_end_ms(from.day - 1) * 1000;
  const end_us = to === null ? null : 'us' in to ? to.us + 1 : lagos_day_end_ms(to.day) * 1000;
  if (start_us !== null && end_us !== null && start_us >= end_us) return invalid('to', 'must not be before from');
  const span_end_us = to === null ? null : 'us' in to ? to.us : end_us;
  return {
    filter: { service, status, recipient, client_reference, from_day: null, to_day: null, from_us: start_us, to_us: end_us === null ? null : end_us - 1 },
    q,
    start_us,
    end_us,
    span_end_us,
  };
}
