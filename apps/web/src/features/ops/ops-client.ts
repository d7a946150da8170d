import type { Endpoint, EndpointResponse } from '@ohgood/contract/endpoint';

/**
 * The console's own caller: its token is an operator's (sessionStorage, this tab only) and never the
 * customer's, and a 401 signs the console out, not the customer app. Bodies are the contract's, unwrapped
 * as declared.
 */
const TOKEN_KEY = 'opsToken';

export class OpsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const opsToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

let onSignedOut: () => void = () => undefined;
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export async function callOps<E extends Endpoint>(
  endpoint: E,
  options: {
    params?: Record<string, string | number>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  } = {},
): Promise<EndpointResponse<E>> {
  const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    encodeURIComponent(String(options.params?.[name] ?? '')),
  );
  const query = new URLSearchParams(
    Object.entries(options.query ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  const token = opsToken.get();
  const res = await fetch(query ? `${path}?${query}` : path, {
    method: endpoint.method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  }).catch(() => {
    throw new OpsError(0, 'NETWORK_ERROR', '네트워크에 연결할 수 없습니다. 잠시 후 다시 시도해주세요.');
  });
  const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (!res.ok) {
    if (res.status === 401 && endpoint.access !== 'public') {
      opsToken.clear();
      onSignedOut();
    }
    throw new OpsError(res.status, body?.code ?? 'REQUEST_FAILED', body?.message ?? '요청에 실패했습니다.');
  }
  return body as EndpointResponse<E>;
}
