/**
 * Tells a dependency outage (the database restarting, the media store unreachable, a full disk) from a
 * bug. An outage is answered `503` with `Retry-After` (docs/deploy.md, "When a dependency is down"): the
 * request did nothing, and the same request succeeds once the dependency is back.
 */

/** Socket-level failures of any client (pg, the S3 SDK): the peer refused, reset or never answered. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not there yet: the connection class (08…),
 * admin/crash shutdown and "starting up" (57P01–57P03), too many connections (53300).
 */
const DATABASE_STATES = /^(08...|57P0[123]|53300)$/;

/**
 * Messages node-postgres throws without a code: a socket closed mid-query ("Connection terminated
 * unexpectedly", "… due to connection timeout"), the pool's checkout timeout, a client whose connection
 * already failed, a write to a closed socket.
 */
const POOL_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'This socket has been ended by the other party',
];

/** Disk trouble under a store or scratch directory: full, over quota, read-only. */
const DISK_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

interface CodedError {
  code?: unknown;
  /** The S3 SDK's service errors: a 5xx from the store (503 SlowDown, 500 InternalError) is an outage too. */
  $metadata?: { httpStatusCode?: unknown };
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and what it wraps (drizzle's query error keeps the driver's as `cause`; AggregateError lists). */
function* chain(error: unknown): Generator<CodedError> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const coded = current as CodedError;
    yield coded;
    pending.push(coded.cause);
    if (Array.isArray(coded.errors)) pending.push(...coded.errors);
  }
}

/** True when the failure means a dependency is unavailable right now, not that the request or code is wrong. */
export function isDependencyOutage(error: unknown): boolean {
  for (const link of chain(error)) {
    const code = typeof link.code === 'string' ? link.code : '';
    if (NETWORK_CODES.has(code) || DISK_CODES.has(code) || DATABASE_STATES.test(code)) return true;
    // The embedded PostgreSQL's Unix socket is gone while its server is down: `connect ENOENT <socket>`.
    if (code === 'ENOENT' && (link as { syscall?: unknown }).syscall === 'connect') return true;
    const message = typeof link.message === 'string' ? link.message : '';
    if (POOL_MESSAGES.some((text) => message.startsWith(text))) return true;
    const status = link.$metadata?.httpStatusCode;
    if (typeof status === 'number' && status >= 500) return true;
  }
  return false;
}
