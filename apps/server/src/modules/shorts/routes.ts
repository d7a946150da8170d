import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline as pump } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { LIMITS } from '@ohgood/contract/limits';
import { shortsEndpoints as api, type FeedPage, SHORTS_MSG } from '@ohgood/contract/shorts';
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../app';
import type { Database } from '../../db/client';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok } from '../../lib/envelope';
import { AppError, badRequest } from '../../lib/errors';
import { resolveMediaTools } from '../media/ffmpeg';
import { mediaRoutes } from '../media/routes';
import { createStorage } from '../media/storage';
import { ShortsPipeline, tooLarge } from './pipeline';
import { createShortsService } from './service';

const pipelines = new WeakMap<Database, ShortsPipeline>();

/** The media queue of the app built on this database (tests await `idle()` instead of sleeping). */
export function pipelineOf(database: Database): ShortsPipeline | undefined {
  return pipelines.get(database);
}

const MB = 1024 * 1024;

/** Spec §7 "data.data list": the body's `data` is the list, paging beside it. */
function feedBody({ data, ...paging }: FeedPage) {
  return { ...ok(data), ...paging };
}

/** Shorts: media serving, upload pipeline, feed, comments, reactions, subscriptions, views and points. */
export function shortsRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    const { config, database, clock } = deps;
    const storage = deps.storage ?? createStorage(config);
    const limits = {
      maxVideoBytes: config.UPLOAD_MAX_VIDEO_MB * MB,
      maxThumbnailBytes: config.UPLOAD_MAX_THUMBNAIL_MB * MB,
      maxDurationSeconds: config.UPLOAD_MAX_DURATION_SECONDS,
    };
    const pipeline = new ShortsPipeline(database.db, clock, storage, () => resolveMediaTools(config), limits, app.log);
    pipelines.set(database, pipeline);
    const service = createShortsService(database.db, clock, config.MEDIA_BASE_URL);

    app.addHook('onReady', () => pipeline.recover());
    app.addHook('onClose', () => pipeline.close());

    await app.register(mediaRoutes(storage));
    await app.register(fastifyMultipart, {
      limits: { fileSize: limits.maxVideoBytes, files: 2, fields: 8, fieldSize: 4096, parts: 10 },
    });

    registerEndpoint(app, api.publicFeed, async (request) =>
      feedBody(await service.feed(request.query, request.customerId)),
    );

    registerEndpoint(app, api.feed, async (request) =>
      feedBody(await service.feed(request.query, requireCustomer(request))),
    );

    registerEndpoint(app, api.one, async (request) => ({
      ...(await service.one(request.params.id, request.customerId)),
      mediaBaseUrl: service.mediaBaseUrl,
    }));

    registerEndpoint(app, api.status, async (request) =>
      ok(await service.status(request.params.id, requireCustomer(request))),
    );

    registerEndpoint(app, api.comments, async (request) =>
      ok(await service.comments(request.params.id, request.customerId)),
    );

    registerEndpoint(app, api.addComment, async (request) =>
      ok(await service.addComment(request.params.id, requireCustomer(request), request.body), '댓글이 등록되었습니다.'),
    );

    registerEndpoint(app, api.deleteComment, async (request) =>
      ok(
        await service.deleteComment(request.params.id, request.params.commentId, requireCustomer(request)),
        '댓글이 삭제되었습니다.',
      ),
    );

    registerEndpoint(app, api.react, async (request) =>
      ok(await service.react(request.params.id, requireCustomer(request), request.body.type)),
    );

    registerEndpoint(app, api.subscribe, async (request) =>
      ok(await service.subscribe(requireCustomer(request), request.params.targetId), '구독했습니다.'),
    );

    registerEndpoint(app, api.unsubscribe, async (request) =>
      ok(await service.unsubscribe(requireCustomer(request), request.query.targetId), '구독이 취소되었습니다.'),
    );

    registerEndpoint(app, api.openView, async (request) =>
      ok(await service.openView(request.params.id, requireCustomer(request))),
    );

    registerEndpoint(app, api.watchToday, async (request) => ok(await service.watchToday(requireCustomer(request))));

    registerEndpoint(app, api.earn, async (request) =>
      service.earn(requireCustomer(request), request.body.shortsId, request.body.watchedSeconds),
    );

    registerEndpoint(app, api.upload, async (request) => {
      const customerId = requireCustomer(request);
      const dir = await mkdtemp(join(tmpdir(), 'ohgood-incoming-'));
      try {
        const fields: Record<string, string> = {};
        let videoFile: string | null = null;
        let thumbnailFile: string | null = null;
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'video' && part.fieldname !== 'thumbnail') {
              part.file.resume();
              continue;
            }
            const target = join(dir, part.fieldname);
            try {
              await pump(part.file, createWriteStream(target));
            } catch (error) {
              if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
                throw tooLarge(`파일은 ${config.UPLOAD_MAX_VIDEO_MB}MB 이하만 올릴 수 있습니다.`);
              }
              throw error;
            }
            if (part.fieldname === 'video') videoFile = target;
            else thumbnailFile = target;
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
        const title = (fields.title ?? '').trim();
        const content = (fields.content ?? '').trim();
        if (!videoFile || !title || !content)
          throw badRequest('UPLOAD_FIELDS_REQUIRED', SHORTS_MSG.uploadFieldsRequired);
        if (title.length > LIMITS.shortsTitleMax) {
          throw badRequest('TITLE_TOO_LONG', `제목은 ${LIMITS.shortsTitleMax}자 이하로 입력해주세요.`);
        }
        if (content.length > LIMITS.shortsContentMax) {
          throw badRequest('CONTENT_TOO_LONG', `내용은 ${LIMITS.shortsContentMax}자 이하로 입력해주세요.`);
        }
        const result = await pipeline.accept({ customerId, title, content, videoFile, thumbnailFile });
        return ok({ ...result, status: 'PROCESSING' as const }, SHORTS_MSG.uploadSuccess);
      } catch (error) {
        if (error instanceof AppError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
          throw badRequest('UPLOAD_TOO_MANY_PARTS', '업로드 형식이 올바르지 않습니다.');
        }
        throw error;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  };
}
