import { z } from 'zod';

/**
 * One HTTP call, declared once: the server registers its route from it (validation, serialization,
 * OpenAPI, access) and the web calls it through the typed client. `response` is the exact HTTP body of
 * the success status — enveloped or bare, as the contract fixes it (docs/rules/api.md#A2); `enveloped()` builds the
 * envelope.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call it. Default-deny on the server: only what is declared here opens a route.
 * - public: nobody is identified (a held token is still sent by the web, and ignored);
 * - optional: a valid token personalises the answer, none is fine (public feeds, docs/rules/api.md#A3);
 * - customer: a valid bearer token is required;
 * - merchant: the merchant's `X-Merchant-Key` header, or a merchant user's portal token after both factors
 *   (either names the same merchant);
 * - merchant-portal: a merchant user's portal token after both factors, never a key (key management);
 * - merchant-portal-pending: a merchant user's token after the password, before the second factor;
 * - staff-pending: an operator's token after the password, before the second factor (only the TOTP step);
 * - {staff: roles}: an operator's token after both factors, with one of the roles.
 */
export type EndpointAccess =
  | 'public'
  | 'optional'
  | 'customer'
  | 'merchant'
  | 'merchant-portal'
  | 'merchant-portal-pending'
  | 'staff-pending'
  | StaffAccess;

/**
 * Operator roles of the console (docs/rules/operations.md#O1). Staff are not customers: their own table, their
 * own token audience, and each console endpoint names the roles that may call it.
 */
export const STAFF_ROLES = ['SUPPORT', 'RISK', 'MODERATOR', 'ADMIN'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A console endpoint: a signed-in operator who passed the second factor and holds one of `staff`. */
export interface StaffAccess {
  staff: readonly StaffRole[];
}

/** Narrows an access declaration to a console one. */
export function isStaffAccess(access: EndpointAccess): access is StaffAccess {
  return typeof access === 'object';
}

export interface EndpointConfig {
  method: HttpMethod;
  /** Fastify style: `/api/public/shorts/:id`. Every `:name` must be a key of `params`. */
  path: `/${string}`;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body schema, or `'multipart'` for a multipart/form-data body the handler reads itself. */
  body?: z.ZodType | 'multipart';
  headers?: z.ZodObject;
  /** The exact HTTP body on success. */
  response: z.ZodType;
  /** Success status; 200 unless said. */
  status?: 200 | 201 | 202;
  access: EndpointAccess;
  summary: string;
  tags: readonly string[];
}

export type Endpoint<C extends EndpointConfig = EndpointConfig> = Readonly<C>;

/** `:id` segments of a path, as a union of names. */
type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A path with `:name` segments must declare `params` with exactly those keys. */
type ParamsMatchPath<C extends EndpointConfig> = [PathParamNames<C['path']>] extends [never]
  ? { params?: undefined }
  : { params: z.ZodObject<{ [K in PathParamNames<C['path']>]: z.ZodType }> };

/**
 * Declares an endpoint. Types only check the path's `:name` segments against `params`; the server checks
 * them again at registration. (No runtime work here: the web bundle carries the declarations without zod.)
 */
export function defineEndpoint<const C extends EndpointConfig>(config: C & ParamsMatchPath<C>): Endpoint<C> {
  return config;
}

/** The `:name` segments of a Fastify-style path. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
}

/** The success envelope `{success: true, message, data}` (docs/rules/api.md#A2). */
export function enveloped<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}

/** The envelope plus `code: 200`, for calls whose clients check the body's code for success (errors keep string codes). */
export function envelopedWithCode<T extends z.ZodType>(data: T) {
  return enveloped(data).extend({ code: z.literal(200) });
}

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller sends (before the server's parsing: coercions accept strings, defaults may be left out). */
export type EndpointParamsInput<E extends Endpoint> = Input<E['params']>;
export type EndpointQueryInput<E extends Endpoint> = Input<E['query']>;
/** A multipart body has no schema here: the web sends FormData, the handler reads its parts. */
export type EndpointBodyInput<E extends Endpoint> = E['body'] extends 'multipart' ? never : Input<E['body']>;
export type EndpointHeadersInput<E extends Endpoint> = Input<E['headers']>;

/** What the server's handler receives (after parsing). */
export type EndpointParams<E extends Endpoint> = Output<E['params']>;
export type EndpointQuery<E extends Endpoint> = Output<E['query']>;
export type EndpointBody<E extends Endpoint> = E['body'] extends 'multipart' ? unknown : Output<E['body']>;
export type EndpointHeaders<E extends Endpoint> = Output<E['headers']>;

/** The HTTP body: what the server's handler returns and what the web's call resolves to. */
export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;
/** The handler's return value before serialization (defaults may be left out). */
export type EndpointResponseInput<E extends Endpoint> = z.input<E['response']>;
