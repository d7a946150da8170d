import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBodyOf } from '../lib/errors';
import { createPageHtml, type LcpImageOf } from './page-html';
import { isApiPath } from './paths';

/** Prefixes that only ever hold API calls or files: never the app, whatever the browser accepts. */
const NEVER_THE_APP = ['/api/', '/media/', '/assets/'];

/**
 * Which unmatched requests get index.html: a GET (or HEAD) of any app path, and a GET that accepts HTML
 * even where the API owns the path for other methods (app routes such as /chat are pages for a
 * browser, while POST /chat is the API). API-only prefixes and missing hashed assets stay JSON 404s (a
 * missing script must never be answered with HTML).
 */
export function servesTheApp(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (path === '/api' || NEVER_THE_APP.some((prefix) => path.startsWith(prefix))) return false;
  return !isApiPath(path) || (request.headers.accept ?? '').includes('text/html');
}

/**
 * The text of each inline script in the built app's HTML (none without a build). The Content-Security-Policy
 * allows exactly these, by their hashes: read from the file the browser gets, they cannot drift from it.
 */
export function inlineScriptsOfWebApp(distDir: string | undefined): string[] {
  const file = distDir === undefined ? undefined : join(distDir, 'index.html');
  if (file === undefined || !existsSync(file)) return [];
  return Array.from(readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g), ([, text]) => text ?? '');
}

/** The operator console's paths: its own page, ops.html (ADR 0138), not the customer app. */
export const isConsolePath = (path: string) => path === '/ops' || path.startsWith('/ops/');

/**
 * Serves the built web app: hashed assets with long cache, index.html for every other GET (SPA fallback),
 * so deep links such as /qrpin?code=… open the app. The HTML names the page's own chunks and its largest
 * image (`page-html.ts`).
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | undefined,
  lcpImageOf?: LcpImageOf,
): Promise<void> {
  const hasDist = distDir !== undefined && existsSync(join(distDir, 'index.html'));
  const pageHtml = hasDist ? createPageHtml(distDir, lcpImageOf) : null;
  const consoleFile = distDir === undefined ? undefined : join(distDir, 'ops.html');
  const consoleHtml = consoleFile && existsSync(consoleFile) ? readFileSync(consoleFile, 'utf8') : null;
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      // One route for every file, looked up on request, not one route per built file: registering the
      // build's ~370 files was the largest part of building the app at start (ADR 0143). A file that is not
      // there goes to the not-found handler below, which serves the app or a JSON 404.
      wildcard: true,
      // Only names with an extension are files of the build; the app's paths (/, /payment/details) go
      // straight to the not-found handler without a look at the disk.
      allowedPath: (pathName) => /\.[^/]+$/.test(pathName),
      index: false,
      // The build writes .br/.gz beside each text asset; they are sent when the browser accepts them.
      preCompressed: true,
      // Cache headers come from setHeaders alone (send's own default would override them with max-age=0).
      cacheControl: false,
      setHeaders(res, path) {
        const immutable = path.includes(`${join(distDir, 'assets')}`);
        res.raw.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (pageHtml && servesTheApp(request)) {
      const path = request.url.split('?')[0] ?? '/';
      if (consoleHtml && isConsolePath(path)) {
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(consoleHtml);
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(await pageHtml(request.url));
    }
    return reply.status(404).send(errorBodyOf('NOT_FOUND', '요청한 경로를 찾을 수 없습니다.'));
  });
}
