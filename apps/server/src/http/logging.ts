import type { FastifyServerOptions } from 'fastify';
import { safeError } from '../lib/safe-error';

/** Anything pino can write lines to. */
export interface LogStream {
  write(line: string): void;
}

/** Query parameters whose values never reach a log line (QR tokens, codes, PINs). */
const SECRET_QUERY = /([?&](?:code|pin|pinCode|qrCode|token|value)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

/**
 * Structured pino logs; tokens, passwords, PINs, QR tokens and account numbers are redacted, and errors go
 * through `safeError`, so a database error never logs its query parameters or the row it refused.
 * `stream` lets tests capture the lines.
 */
export function loggerOptions(level: string, stream?: LogStream): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-merchant-key"]',
        'req.headers.cookie',
        '*.pwd',
        '*.password',
        '*.pinCode',
        '*.qrCode',
        '*.account',
        '*.accessToken',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      err: safeError,
      req(request) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}
