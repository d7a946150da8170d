import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBodyOf } from '../../lib/errors';
import { contentTypeOf, type MediaStorage, safeKey } from './storage';

/** Parses a single `bytes=` range; undefined = whole file, null = unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  let start: number;
  let end: number;
  if (from === '') {
    if (to === '') return null;
    const suffix = Number(to);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return null;
  return { start, end };
}

/**
 * A strong validator for a stored object: its key and size. Keys are random and never rewritten (ADR 0070), so
 * the pair names one content for good. A strong validator is what lets a browser keep the byte ranges it
 * preloaded and ask only for the rest (`If-Range`), instead of starting the video over.
 */
export function mediaEtag(key: string, size: number): string {
  return `"${size.toString(36)}-${createHash('sha256').update(key).digest('base64url').slice(0, 16)}"`;
}

/** Whether an `If-None-Match` header names this validator (or is `*`). */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Serves media under /media/ from any storage, with single-range requests (206) so video seeking and
 * preloading work, and long cache headers: keys are random and never rewritten.
 */
export function mediaRoutes(storage: MediaStorage): FastifyPluginAsync {
  return async (app) => {
    const handler = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
      const key = safeKey(request.params['*'] ?? '');
      // Originals waiting for transcoding are private.
      if (!key || key.startsWith('incoming/')) {
        return reply.status(404).send(errorBodyOf('NOT_FOUND', '파일을 찾을 수 없습니다.'));
      }
      const size = await storage.size(key);
      if (size === null) {
        return reply.status(404).send(errorBodyOf('NOT_FOUND', '파일을 찾을 수 없습니다.'));
      }
      const etag = mediaEtag(key, size);
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', contentTypeOf(key))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag);
      if (matchesAny(request.headers['if-none-match'], etag)) return reply.status(304).send();
      // A range is served only for the content it was asked against; another validator gets the whole file.
      const ifRange = request.headers['if-range'];
      const asked = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
      const range = parseRange(asked, size);
      if (range === null) {
        return reply.status(416).header('content-range', `bytes */${size}`).send();
      }
      if (range) {
        reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', size);
      }
      return reply.send(await storage.read(key, range));
    };
    // Fastify adds the matching HEAD route itself.
    app.get('/media/*', { config: { access: 'public' }, schema: { hide: true } }, handler);
  };
}
