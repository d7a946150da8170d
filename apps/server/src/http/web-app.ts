import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isApiPath, isSpaPage } from './paths';

/**
 * Serves the built web app: hashed assets with long cache, index.html for every other GET (SPA fallback),
 * so deep links such as /qrpin?code=… open the app.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const hasDist = distDir !== undefined && existsSync(join(distDir, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
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
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed asset is a 404, never index.html (which a browser would refuse as a script).
    const isAsset = request.url.startsWith('/assets/');
    if (
      (!isApiPath(request.url) || isSpaPage(request.url)) &&
      !isAsset &&
      hasDist &&
      (request.method === 'GET' || request.method === 'HEAD')
    ) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ success: false, code: 'NOT_FOUND', message: '요청한 경로를 찾을 수 없습니다.' });
  });
}
