import {
  type Endpoint,
  type EndpointBody,
  type EndpointHeaders,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponseInput,
  isStaffAccess,
  pathParamNames,
  type StaffAccess,
} from '@ohgood/contract/endpoint';
import { errorBody } from '@ohgood/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { JsonText } from './json-text';

/** The request a handler of endpoint E sees: params, query, body and headers already parsed by its schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
  Headers: EndpointHeaders<E>;
}>;

/**
 * Returns exactly the declared HTTP body; the response schema checks it again on the way out. A hot path may
 * return the body's JSON text instead (`JsonText`), built from parts it checked against the same schema.
 */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) =>
  | Promise<EndpointResponseInput<E> | JsonText<EndpointResponseInput<E>>>
  | EndpointResponseInput<E>
  | JsonText<EndpointResponseInput<E>>;

/** Route options an endpoint may add that are about this server, not the contract. */
export type EndpointRouteOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'preHandler'>;

/** Every failure goes out in the one error shape; listing them documents it and serializes it. */
const ERROR_STATUSES = [400, 403, 404, 409, 413, 415, 422, 429, 500] as const;

const SECURITY: Record<Exclude<Endpoint['access'], StaffAccess>, Array<Record<string, string[]>> | undefined> = {
  public: undefined,
  optional: [{ bearer: [] }, {}],
  customer: [{ bearer: [] }],
  merchant: [{ merchantKey: [] }, { merchantPortal: [] }],
  'merchant-portal': [{ merchantPortal: [] }],
  'merchant-portal-pending': [{ merchantPortal: [] }],
  'staff-pending': [{ staffBearer: [] }],
};

function securityOf(access: Endpoint['access']) {
  return isStaffAccess(access) ? [{ staffBearer: [] }] : SECURITY[access];
}

/**
 * Registers the Fastify route of a contract endpoint: its schemas validate the request, serialize (and
 * so check) the response and feed OpenAPI; its `access` goes into the route config read by the default-deny
 * auth guard.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: EndpointRouteOptions = {},
): void {
  const names = pathParamNames(endpoint.path);
  const keys = endpoint.params ? Object.keys(endpoint.params.shape) : [];
  if (names.length !== keys.length || names.some((name) => !keys.includes(name))) {
    throw new Error(`${endpoint.method} ${endpoint.path}: params must be exactly [${names.join(', ')}]`);
  }
  const errors = Object.fromEntries(
    [...ERROR_STATUSES, ...(endpoint.access === 'public' ? [] : [401])].map((status) => [status, errorBody]),
  );
  const multipart = endpoint.body === 'multipart';
  app.route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    config: { access: endpoint.access },
    schema: {
      summary: endpoint.summary,
      tags: [...endpoint.tags],
      ...(securityOf(endpoint.access) ? { security: securityOf(endpoint.access) } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body && !multipart ? { body: endpoint.body } : {}),
      ...(multipart ? { consumes: ['multipart/form-data'] } : {}),
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      response: { [endpoint.status ?? 200]: endpoint.response, ...errors },
    },
    handler: async (request, reply) => {
      if (endpoint.status) reply.status(endpoint.status);
      return handler(request as EndpointRequest<E>, reply);
    },
  });
}
