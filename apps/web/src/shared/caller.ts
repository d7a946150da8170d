import type {
  Endpoint,
  EndpointBodyInput,
  EndpointHeadersInput,
  EndpointParamsInput,
  EndpointQueryInput,
  EndpointResponse,
} from '@ohgood/contract/endpoint';
import type { ErrorCode } from '@ohgood/contract/errors';
import { TIMEOUTS } from '@ohgood/contract/limits';
import { MSG } from '@ohgood/contract/messages';

/*
 * The caller factory behind `shared/api-client.ts`, the one way the web calls a contract endpoint.
 * `createCaller` makes a caller from a session policy (how the token is read, what a refused session does);
 * everything else (URLs, timeouts, the error envelope, reads repeated through a 503) is the same for every
 * caller. It imports no session of its own: the console's caller (`features/ops/api/staff-api.ts`) is made
 * here without loading the customer's, which `api-client.ts` adds.
 */

/**
 * A failed call: the HTTP status (0 for network/timeout), the contract's error code and the Korean message
 * to show. Screens branch on `code`, never on the message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The request field the server refused, when it named one (a form marks that field). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The server's Retry-After (a 503 or 429), in ms, when it sent one in seconds. */
  retryAfterMs?: number;
}

function retryAfterMs(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * The code of the contract's error envelope (`{success: false, code, message}`); anything else (a proxy's
 * page, a body that is not ours) is the generic one. A code this build does not know yet (a newer server) is
 * kept: no screen branches on it, and its message is still the server's. The contract's list of codes stays
 * out of the bundle.
 */
function toErrorCode(body: { success?: unknown; code?: unknown }): ErrorCode {
  const { success, code } = body;
  return success === false && typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)
    ? (code as ErrorCode)
    : 'REQUEST_FAILED';
}

/** A failed response's body as an ApiError: the envelope's code, message and field, or the generic ones. */
function errorOf(status: number, body: unknown): ApiError {
  const err = (body && typeof body === 'object' ? body : {}) as {
    success?: unknown;
    code?: unknown;
    message?: unknown;
    field?: unknown;
  };
  const message = typeof err.message === 'string' && err.message ? err.message : MSG.requestFailed;
  return new ApiError(status, toErrorCode(err), message, typeof err.field === 'string' ? err.field : undefined);
}

type Query = Record<string, unknown>;

function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A contract path with its `:name` segments filled in, each encoded. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
}

/** What a caller decides about sessions; the rest of a call is the same for every caller. */
export interface SessionPolicy {
  /** Prepended to every path ('' for the page's own origin). */
  baseUrl?: string;
  /** The bearer token to send to this endpoint, or null for none. */
  token(endpoint: Endpoint): string | null;
  /** Whether this endpoint needs the token: without one, the call fails with LOGIN_REQUIRED before it leaves. */
  needsToken(endpoint: Endpoint): boolean;
  /** What else happens when a token is needed and none is held (the customer's app asks for a login). */
  onMissingToken?(endpoint: Endpoint): void;
  /** The server refused the call with a 401 or 403 (`sent` is the token it got): end the session, or not. */
  refused(failure: ApiError, endpoint: Endpoint, sent: string | null): void;
  /** Reads repeated while the server answers 503 SERVICE_UNAVAILABLE (a dependency restarting). */
  unavailableRetries?: number;
}

/** The longest wait between those tries, whatever the server's Retry-After says. */
const MAX_RETRY_WAIT_MS = 5_000;

/** A call's options (besides its path parameters, already in its path). */
interface Options {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds, null for none, absent for the endpoint's default. */
  timeout?: number | null;
  signal?: AbortSignal;
  transport?: Transport;
}

/** A request as `fetch` takes it, made from a call. */
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body: FormData | string | undefined;
  signal: AbortSignal | undefined;
}

/**
 * What carries a request and brings back its answer, as `fetch` does (the default): it rejects only when no
 * answer came (the network, or the signal's reason). Every other rule of a call stays the caller's.
 */
export type Transport = (url: string, request: TransportRequest) => Promise<Response>;

/** One try of a call to `path` (base URL included, parameters filled in). */
async function sendOnce(policy: SessionPolicy, endpoint: Endpoint, path: string, call: Options): Promise<unknown> {
  const token = policy.token(endpoint);
  if (!token && policy.needsToken(endpoint)) {
    policy.onMissingToken?.(endpoint);
    throw new ApiError(401, 'LOGIN_REQUIRED', MSG.loginRequired);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: FormData | string | undefined;
  if (call.body instanceof FormData) {
    body = call.body;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  // Default: 10 s (docs/rules/api.md#A5), none for multipart uploads.
  const timeoutMs =
    call.timeout === undefined ? (endpoint.body === 'multipart' ? null : TIMEOUTS.shortMs) : call.timeout;
  const signals = [call.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  let response: Response;
  try {
    response = await (call.transport ?? fetch)(buildUrl(path, call.query), {
      method: endpoint.method,
      headers,
      body,
      signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
    });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(
      0,
      timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      timedOut ? '요청 시간이 초과되었습니다.' : '네트워크 오류가 발생했습니다. 다시 시도해주세요.',
    );
  }
  const text = await response.text();
  // A CSV download (the console's exports): the text itself, its BOM already dropped by the decoding.
  if (response.ok && response.headers.get('content-type')?.startsWith('text/csv')) return text;
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const failure = errorOf(response.status, parsed);
    failure.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
    if (response.status === 401 || response.status === 403) policy.refused(failure, endpoint, token);
    throw failure;
  }
  // docs/rules/api.md#A4: a 200 body `{success: false, …}` is a failure too, carrying its message (and our code).
  if ((parsed as { success?: unknown } | null)?.success === false) throw errorOf(200, parsed);
  return parsed;
}

/**
 * A read is repeated by itself while the server is briefly unavailable (503 SERVICE_UNAVAILABLE): nothing
 * happened on the server, so repeating a GET is harmless. Writes are never repeated: the screen offers it.
 */
async function send(policy: SessionPolicy, endpoint: Endpoint, path: string, options: Options): Promise<unknown> {
  const retries = policy.unavailableRetries ?? 2;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await sendOnce(policy, endpoint, path, options);
    } catch (error) {
      const unavailable = error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE';
      if (!unavailable || endpoint.method !== 'GET' || attempt >= retries || options.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(error.retryAfterMs ?? 1_000, MAX_RETRY_WAIT_MS)));
    }
  }
}

/* The typed calls of the contract's endpoints. */

/** An input is required when its type has required keys, optional when all are, absent when undeclared. */
type Slot<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type CallOptions<E extends Endpoint> = Slot<'params', EndpointParamsInput<E>> &
  Slot<'query', EndpointQueryInput<E>> &
  Slot<'body', E['body'] extends 'multipart' ? FormData : EndpointBodyInput<E>> &
  Slot<'headers', EndpointHeadersInput<E>> & {
    /** Milliseconds, or null for none. Default: 10 s (docs/rules/api.md#A5), none for multipart uploads. */
    timeout?: number | null;
    signal?: AbortSignal;
    /** How the request goes: `fetch` unless given (an upload that reports its bytes: `upload-request.ts`). */
    transport?: Transport;
  };

type CallArgs<E extends Endpoint> =
  object extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>];

/** Calls a contract endpoint and resolves to its HTTP body exactly as declared (enveloped or bare). */
export type Caller = <E extends Endpoint>(endpoint: E, ...args: CallArgs<E>) => Promise<EndpointResponse<E>>;

/** The 30 s timeout for slow calls (report, chat; docs/rules/api.md#A5). */
export const LONG_TIMEOUT = TIMEOUTS.longMs;

/**
 * A caller on `policy`: it resolves to the endpoint's body exactly as declared (no unwrapping); failures reject
 * with an ApiError carrying the contract's error code, after the policy has seen a 401 or 403.
 */
export function createCaller(policy: SessionPolicy): Caller {
  return (endpoint, ...[options]) => {
    const { params, ...rest } = (options ?? {}) as Options & { params?: Record<string, unknown> };
    return send(policy, endpoint, (policy.baseUrl ?? '') + fillPath(endpoint.path, params), rest) as never;
  };
}
