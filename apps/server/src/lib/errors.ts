import type { ErrorBody, ErrorCode } from '@ohgood/contract/errors';

/** A failure the client should see: a real HTTP status, a stable code and a Korean message. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode, message: string) => new AppError(400, code, message);
export const unauthorized = (message: string) => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (code: ErrorCode, message: string) => new AppError(403, code, message);
export const notFound = (code: ErrorCode, message: string) => new AppError(404, code, message);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
export const unprocessable = (code: ErrorCode, message: string) => new AppError(422, code, message);
export const tooMany = (code: ErrorCode, message: string) => new AppError(429, code, message);

/** The one error body, for the few places that answer without throwing (not-found handlers, the error handler). */
export function errorBodyOf(code: ErrorCode, message: string): ErrorBody {
  return { success: false, code, message };
}
