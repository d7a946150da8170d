import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach a log line (QR tokens, codes, PINs). */
const SECRET_QUERY = /([?&](?:code|pin|pinCode|qrCode|token|value)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

/** Structured pino logs; tokens, passwords, PINs, QR tokens and account numbers are redacted. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
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
      req(request) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}
