// @billvend/sdk: a typed client of billvend's API (sdk/README.md).
export { Billvend } from './client.js';
export type { BillvendOptions, BillvendResponse, EventsOptions, RequestOptions } from './client.js';
export { BillvendConnectionError, BillvendError, WebhookVerificationError } from './errors.js';
export type { ErrorDetail } from './errors.js';
export { verifyWebhook } from './webhooks.js';
export type { HeaderSource, VerifyOptions } from './webhooks.js';
export type { BillvendEvent, DataOf, ErrorCode, EventKind, ListItem, Method, PaginatedPaths, PathsWith, QueryOf, RequestBody } from './types.js';
export type { components, operations, paths, webhooks } from './openapi.js';
