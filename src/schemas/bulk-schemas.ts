// Schemas of bulk orders (docs/api.md "Bulk orders"): POST /v1/services/bulk and GET /v1/services/bulk/{id}.
// The route validates only the envelope (the PIN and 1 to 100 objects naming a service_type): each item
// is validated on its own against its service's body, so that one bad item is that item's error and
// the others are still placed.
import Type, { type TSchema } from 'typebox';
import { Timestamp } from './common.js';
import { Pin } from './service-schemas.js';
import { service_types_text } from '../services/order.js';

/** Items of one batch, at least and at most (docs/api.md "Limits"). */
export const bulk_items_min = 1;
export const bulk_items_max = 100;
/** A service type name as an item may give it: the registered ones are checked per item. */
const ServiceTypeName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_]+$', errorMessage: `must name a service type: ${service_types_text}` });

/** What the route validates: the batch's own fields; each item is checked against its service's body. */
export const BulkBody = Type.Object({
  pin: Pin,
  items: Type.Array(Type.Object({ service_type: ServiceTypeName }, { additionalProperties: true, errorMessage: 'must be an object with a service_type' }), {
    minItems: bulk_items_min,
    maxItems: bulk_items_max,
    errorMessage: `must be a list of ${bulk_items_min} to ${bulk_items_max} purchases`,
  }),
});

/** The document's view of the body: each item is one service's purchase body without its pin. */
export function bulk_body_doc(item_schemas: TSchema[]): TSchema {
  return Type.Object({
    pin: Pin,
    items: Type.Array(Type.Union(item_schemas), {
      minItems: bulk_items_min,
      maxItems: bulk_items_max,
      description: 'each item is the purchase body of its service_type without pin (client_reference and metadata optional); an item that fails its own validation is refused alone, with its error in data.items',
    }),
  });
}

const ItemError = Type.Object({
  code: Type.String({ description: 'stable code (docs/api.md "Errors"): validation.failed, wallet.insufficient_funds, wallet.limit_exceeded, transaction.duplicate_reference, …' }),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String({ description: 'items.<index>.<field>' }), message: Type.String() }))),
  reference: Type.Optional(Type.String({ description: 'transaction.duplicate_reference: the order that holds the client_reference' })),
});

export const BatchItemView = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'the item\'s position in items, from 0' }),
  service_type: Type.String(),
  reference: Type.Union([Type.String(), Type.Null()], { description: 'the order this item placed (GET /v1/transactions/{reference}); null when it was refused' }),
  status: Type.Enum(['processing', 'delivered', 'failed', 'refused'], { description: 'the order\'s status now (failed: refunded); refused: nothing was placed nor debited, see error' }),
  client_reference: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([ItemError, Type.Null()], { description: 'why the item was refused, in the shape of an error answer' }),
});

export const BatchView = Type.Object({
  id: Type.String({ pattern: '^bat_[0-9A-Za-z]{24}$', description: 'the batch id' }),
  status: Type.Enum(['processing', 'completed'], { description: 'completed once every item is final (delivered, failed or refused); the batch.completed event follows' }),
  items_count: Type.Integer(),
  counts: Type.Object({
    processing: Type.Integer(), delivered: Type.Integer(), failed: Type.Integer(), refused: Type.Integer(),
  }),
  items: Type.Array(BatchItemView),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
});
