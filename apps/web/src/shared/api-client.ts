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
import { clearToken, expireSession, getToken, wasLoggedOutByUser } from './auth-token';
import { navigateTo } from './navigation';
import { notify } from './notify';
import { currentPath, loginPath } from './return-to';

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
 * The code of our error envelope (`{success: false, code, message}`); anything else (a proxy's page, a body
 * that is not ours) is the generic one. A code this build does not know yet (a newer server) is kept: no screen
 * branches on it, and its message is still the server's. The contract's list of codes stays out of the bundle.
 */
function toErrorCode(body: { success?: unknown; code?: unknown }): ErrorCode {
  const { success, code } = body;
  return success === false && typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)
    ? (code as ErrorCode)
    : 'REQUEST_FAILED';
}

/** 403 codes that mean "your session is not valid": they log the user out. Business 403s (e.g. a
 * suspended account) do not. */
const AUTH_FORBIDDEN_CODES: ReadonlySet<ErrorCode> = new Set(['FORBIDDEN', 'UNAUTHORIZED', 'TOKEN_REVOKED']);

type Query = Record<string, unknown>;

interface Call {
  method: Endpoint['method'];
  path: string;
  /** No customer token needed (a held one is still sent, so public feeds can personalise: docs/rules/api.md#A3). */
  isPublic: boolean;
  /** Merchant calls carry their key header and never touch the customer's session. */
  asMerchant: boolean;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs: number | null;
}

function buildUrl(path: string, query?: Query): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  if (!query) return normalized;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${normalized}?${search}` : normalized;
}

function sendToLogin(): void {
  if (window.location.pathname !== '/login') navigateTo(loginPath(currentPath()), { replace: true });
}

/** docs/rules/api.md#A4: a 200 body `{success: false, …}` is a failure too, carrying its message (and our code). */
function failedBody(body: unknown): ApiError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const wrapped = body as { success?: unknown; code?: unknown; message?: unknown };
  if (wrapped.success !== false) return null;
  const message = typeof wrapped.message === 'string' && wrapped.message ? wrapped.message : MSG.requestFailed;
  return new ApiError(200, toErrorCode(wrapped), message);
}

/** An idempotent read is tried this many times more while the server answers 503 (a dependency restarting). */
const UNAVAILABLE_RETRIES = 2;
/** The longest wait between those tries, whatever the server's Retry-After says. */
const MAX_RETRY_WAIT_MS = 5_000;

/**
 * A read is repeated by itself while the server is briefly unavailable (503 SERVICE_UNAVAILABLE): nothing
 * happened on the server, so repeating a GET is harmless. Writes are never repeated: the screen offers it.
 */
async function send(call: Call): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await sendOnce(call);
    } catch (error) {
      const unavailable = error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE';
      if (!unavailable || call.method !== 'GET' || attempt >= UNAVAILABLE_RETRIES || call.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(error.retryAfterMs ?? 1_000, MAX_RETRY_WAIT_MS)));
    }
  }
}

/**
 * A read made without a session right after the user logged out here belongs to a signed-in screen that is
 * leaving: one committed just before the logout can still start its queries as React finishes that commit.
 * It is refused quietly; the logout's own message stands, and guarded pages announce themselves (RequireAuth).
 */
function isLeavingAfterLogout(call: Call): boolean {
  return call.method === 'GET' && wasLoggedOutByUser();
}

async function sendOnce(call: Call): Promise<unknown> {
  const token = call.asMerchant ? null : getToken();
  if (!call.isPublic && !token) {
    if (!isLeavingAfterLogout(call)) {
      notify(MSG.loginRequired);
      sendToLogin();
    }
    throw new ApiError(401, 'LOGIN_REQUIRED', MSG.loginRequired);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (call.body instanceof FormData) {
    body = call.body;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  const signals = [call.signal, call.timeoutMs ? AbortSignal.timeout(call.timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  let response: Response;
  try {
    response = await fetch(buildUrl(call.path, call.query), {
      method: call.method,
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
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const err = (parsed ?? {}) as { success?: unknown; code?: unknown; message?: unknown; field?: unknown };
    const code = toErrorCode(err);
    if (!call.asMerchant && (response.status === 401 || (response.status === 403 && AUTH_FORBIDDEN_CODES.has(code)))) {
      // A held token the server refuses is an expired session: say so, rather than land on /login mutely.
      if (token && window.location.pathname !== '/login') notify(MSG.sessionExpired);
      if (token) expireSession();
      else clearToken();
      sendToLogin();
    }
    const message = typeof err.message === 'string' && err.message ? err.message : MSG.requestFailed;
    const failure = new ApiError(response.status, code, message, typeof err.field === 'string' ? err.field : undefined);
    failure.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
    throw failure;
  }
  const failure = failedBody(parsed);
  if (failure) throw failure;
  return parsed;
}

/* The typed client of the contract's endpoints. */

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
  };

type CallArgs<E extends Endpoint> =
  object extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>];

/** The 30 s timeout for slow calls (report, chat; docs/rules/api.md#A5). */
export const LONG_TIMEOUT = TIMEOUTS.longMs;

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
}

/**
 * Calls a contract endpoint and resolves to its HTTP body exactly as declared (enveloped or bare: no
 * unwrapping). Failures reject with an ApiError carrying the contract's error code; 401s and session 403s
 * log the user out and go to /login; a customer call without a token never leaves the browser.
 */
export function callEndpoint<E extends Endpoint>(endpoint: E, ...[options]: CallArgs<E>): Promise<EndpointResponse<E>> {
  const opts = (options ?? {}) as {
    params?: Record<string, unknown>;
    query?: Query;
    body?: unknown;
    headers?: Record<string, string>;
    timeout?: number | null;
    signal?: AbortSignal;
  };
  const defaultTimeout = endpoint.body === 'multipart' ? null : TIMEOUTS.shortMs;
  return send({
    method: endpoint.method,
    path: fillPath(endpoint.path, opts.params),
    isPublic: endpoint.access !== 'customer',
    asMerchant: endpoint.access === 'merchant',
    query: opts.query,
    body: opts.body,
    headers: opts.headers,
    signal: opts.signal,
    timeoutMs: opts.timeout === undefined ? defaultTimeout : opts.timeout,
  }) as Promise<EndpointResponse<E>>;
}
