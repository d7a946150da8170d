import type { ErrorBody, ErrorCode } from '@ohgood/contract/errors';

/** A failure the client should see: a real HTTP status, a stable code and a Korean message. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions & {
      /** The request field at fault, when the refusal is about one (the client marks that field). */
      field?: string;
    },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.field = options?.field;
  }

  /** The request field at fault, when the refusal is about one. */
  readonly field?: string;
}

export const badRequest = (code: ErrorCode, message: string, field?: string) =>
  new AppError(400, code, message, { field });
export const unauthorized = (message: string) => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (code: ErrorCode, message: string) => new AppError(403, code, message);
export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message);
export const conflict = (code: ErrorCode, message: string, field?: string) =>
  new AppError(409, code, message, { field });
export const unprocessable = (code: ErrorCode, message: string) => new AppError(422, code, message);
export const tooMany = (code: ErrorCode, message: string) => new AppError(429, code, message);

/** The one error body, for the few places that answer without throwing (not-found handlers, the error handler). */
export function errorBodyOf(code: ErrorCode, message: string, field?: string): ErrorBody {
  return field === undefined ? { success: false, code, message } : { success: false, code, message, field };
}
