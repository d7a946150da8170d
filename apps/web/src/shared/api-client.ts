import { TIMEOUTS } from '@ohgood/contract/limits';
import { MSG } from '@ohgood/contract/messages';
import { clearToken, getToken } from './auth-token';
import { navigateTo } from './navigation';
import { notify } from './notify';
import { currentPath, loginPath } from './return-to';

/** A failed call: the HTTP status (0 for network/timeout), the server's code and its Korean message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 403 codes that mean "your session is not valid": they log the user out. Business 403s (e.g. a
 * suspended account) do not. */
const AUTH_FORBIDDEN_CODES = new Set(['FORBIDDEN', 'UNAUTHORIZED', 'TOKEN_REVOKED']);

export function isPublicPath(path: string): boolean {
  return path.includes('/api/public') || /^\/auth(\/|$|\?)/.test(path) || path.startsWith('/health');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Calls the merchant API with this key instead of the customer's token (no login redirects). */
  merchantKey?: string;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
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

/** Unwraps `{success, message, data}`; raw arrays, booleans and objects without `success` pass through. */
function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'success' in body) {
    const wrapped = body as { success: boolean; message?: string; data?: unknown };
    if (wrapped.success === false) {
      const code = (body as { code?: string }).code ?? 'REQUEST_FAILED';
      throw new ApiError(200, code, wrapped.message || MSG.requestFailed);
    }
    return 'data' in wrapped ? wrapped.data : body;
  }
  return body;
}

async function request<T>(timeoutMs: number | null, path: string, options: RequestOptions = {}): Promise<T> {
  const asMerchant = options.merchantKey !== undefined;
  const token = asMerchant ? null : getToken();
  const isPublic = asMerchant || isPublicPath(path);
  if (!isPublic && !token) {
    notify(MSG.loginRequired);
    sendToLogin();
    throw new ApiError(401, 'LOGIN_REQUIRED', MSG.loginRequired);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  // The public feed still gets the token when one is held, so it can personalise (spec §7).
  if (token) headers.authorization = `Bearer ${token}`;
  if (asMerchant) headers['x-merchant-key'] = options.merchantKey as string;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const signals = [options.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
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
    const err = (parsed ?? {}) as { code?: string; message?: string };
    const code = err.code ?? `HTTP_${response.status}`;
    if (!asMerchant && (response.status === 401 || (response.status === 403 && AUTH_FORBIDDEN_CODES.has(code)))) {
      clearToken();
      sendToLogin();
    }
    throw new ApiError(response.status, code, err.message || MSG.requestFailed);
  }
  return unwrap(parsed) as T;
}

function client(timeoutMs: number | null) {
  return {
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(timeoutMs, path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(timeoutMs, path, { ...options, method: 'POST', body }),
    delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(timeoutMs, path, { ...options, method: 'DELETE' }),
  };
}

/** The 10 s client (spec §7). */
export const api = client(TIMEOUTS.shortMs);
/** The 30 s client, for slow calls (report, chat). */
export const apiLong = client(TIMEOUTS.longMs);
/** Uploads have no timeout (spec §7). */
export const apiUpload = client(null);
