// Types read from the generated OpenAPI declarations (openapi.d.ts): which paths take which method, the body
// each takes, the query and path parameters, and the `data` of the success answer.
import type { components, paths } from './openapi.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** Every permanent error code billvend answers with (docs/api.md "Errors"). */
export type ErrorCode = components['schemas']['ErrorCodes'];

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The paths that take method M. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The JSON body of a request to P with M (undefined when the route takes none). */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

type Parameters<P extends keyof paths, M extends Method, K extends 'query' | 'path'> =
  Operation<P, M> extends { parameters: { [key in K]?: infer Q } } ? ([Q] extends [never] ? never : NonNullable<Q>) : never;

export type QueryOf<P extends keyof paths, M extends Method> = Parameters<P, M, 'query'>;
export type PathParamsOf<P extends keyof paths, M extends Method> = Parameters<P, M, 'path'>;

type SuccessStatus = 200 | 201 | 202;

/** The whole JSON answer of a success: `{success, message?, data, request_id}`. */
export type SuccessBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer B } } ? B : never }[keyof R & SuccessStatus]
    : never;

/** The `data` of a success answer. */
export type DataOf<P extends keyof paths, M extends Method> = SuccessBody<P, M> extends { data: infer D } ? D : never;

/** The items of a paginated list (the one array in `data` beside `pagination`). */
export type ListItem<D> = { [K in keyof D]: D[K] extends readonly (infer I)[] ? I : never }[keyof D];

/** The paths whose GET answer is paginated (`data.pagination`). */
export type PaginatedPaths = {
  [P in PathsWith<'get'>]: DataOf<P, 'get'> extends { pagination: unknown } ? P : never;
}[PathsWith<'get'>];

/** One event, as the feed lists it and a webhook delivers it: `{event, id, created_at, data}`. */
export type BillvendEvent = DataOf<'/v1/events', 'get'> extends { events: (infer E)[] } ? E : never;

/** The kinds of event (`event`). */
export type EventKind = BillvendEvent extends { event: infer K } ? K : string;
