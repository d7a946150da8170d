import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** The origin of an absolute media base (a CDN), or nothing when media is served by this app. */
function mediaOrigin(mediaBaseUrl: string): string | null {
  try {
    return new URL(mediaBaseUrl).origin;
  } catch {
    return null; // relative ('/media/'): same origin, covered by 'self'
  }
}

/** A CSP source allowing exactly this inline script: its SHA-256, as the browser hashes the element's text. */
const inlineScriptSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The Content-Security-Policy: this origin only, plus the configured media base for videos and images.
 * `data:` images cover the merchant's QR (an SVG data URL) and upload previews; `blob:` covers recorded
 * clips and the camera. Styles allow inline attributes (React sets them). No inline script runs but the web
 * app's own, each allowed by its hash (`inlineScripts`, read from the built HTML: ADR 0262).
 */
export function contentSecurityPolicy(mediaBaseUrl: string, inlineScripts: readonly string[] = []): string {
  const media = mediaOrigin(mediaBaseUrl);
  const withMedia = (...sources: string[]) => [...sources, ...(media ? [media] : [])].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScripts.map(inlineScriptSource)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${withMedia("'self'", 'data:', 'blob:')}`,
    `media-src ${withMedia("'self'", 'blob:')}`,
    // blob: — the upload page reads the picked or recorded clip back from its object URL with fetch().
    `connect-src ${withMedia("'self'", 'blob:')}`,
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Payment screens must never be framed (clickjacking).
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Security headers on every response — the web app, the API, /media, docs, errors and event streams
 * (set on the raw response at the start, so even hijacked SSE replies carry them). HSTS only when the
 * request came over HTTPS (directly, or per X-Forwarded-Proto when TRUST_PROXY is set).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  mediaBaseUrl: string,
  inlineScripts: readonly string[] = [],
): void {
  const csp = contentSecurityPolicy(mediaBaseUrl, inlineScripts);
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise and a
  // microtask each time.
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    res.setHeader('content-security-policy', csp);
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    // The QR scanner and the shorts recorder need the camera (and the recorder the microphone) here only.
    res.setHeader('permissions-policy', 'camera=(self), microphone=(self), geolocation=(), payment=(), usb=()');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    if (request.protocol === 'https') {
      res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    done();
  });
}
