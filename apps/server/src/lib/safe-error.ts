/** Database error fields that name what failed without carrying any value (pg's `detail` does: never read). */
const SAFE_FIELDS = ['code', 'constraint', 'table', 'column', 'severity', 'routine'] as const;

/**
 * An error's message without data: drizzle's "Failed query: <sql>\nparams: <values>" keeps the SQL text
 * (values are always bound parameters) and drops the values — password hashes, emails, accounts, PINs.
 */
export function safeErrorMessage(message: string): string {
  return (message.split('\nparams:')[0] ?? '').slice(0, 500);
}

export interface SafeError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/**
 * What a log line may say about an error: its type, a data-free message, the database's error code and
 * constraint, and the stack frames (never the stack's first line, which repeats the message). Allow-list,
 * so a new error shape cannot leak a field; causes are followed a few levels.
 */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const out: SafeError = {
    type: error.name,
    message: safeErrorMessage(error.message),
    stack: frames.slice(0, 15).join('\n'),
  };
  for (const field of SAFE_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') out[field] = value;
  }
  if (error.cause !== undefined && depth < 3) out.cause = safeError(error.cause, depth + 1);
  return out;
}
