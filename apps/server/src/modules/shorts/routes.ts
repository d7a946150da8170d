import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline as pump } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { envelope, errorBody } from '@ohgood/contract/envelope';
import { LIMITS } from '@ohgood/contract/limits';
import {
  commentParams,
  commentsResponse,
  createCommentRequest,
  createCommentResponse,
  deleteCommentQuery,
  deleteCommentResponse,
  earnRequest,
  earnResult,
  feedQuery,
  feedResponse,
  idParams,
  oneShortResponse,
  reactionRequest,
  reactionResponse,
  SHORTS_MSG,
  statusResponse,
  subscriptionResponse,
  targetParams,
  targetQuery,
  uploadResponse,
  viewResponse,
  watchToday,
} from '@ohgood/contract/shorts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';
import type { Database } from '../../db/client';
import type { Notifications } from '../../db/notifications';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import { AppError, badRequest } from '../../lib/errors';
import { resolveMediaTools } from '../media/ffmpeg';
import { mediaRoutes } from '../media/routes';
import { createStorage } from '../media/storage';
import { ShortsPipeline, tooLarge } from './pipeline';
import { createRanking, RANK_REFRESH_MS } from './ranking';
import { createShortsService } from './service';

const pipelines = new WeakMap<Database, ShortsPipeline>();

/** The media queue of the app built on this database (tests await `idle()` instead of sleeping). */
export function pipelineOf(database: Database): ShortsPipeline | undefined {
  return pipelines.get(database);
}

const MB = 1024 * 1024;
const tags = ['shorts'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** Public answers the same for every anonymous caller, so the in-process cache may keep them briefly. */
export const PUBLIC_SHORTS_ROUTES = [
  '/api/public/shorts/feeds',
  '/api/public/shorts/:id',
  '/api/public/shorts/feeds/:id/comments',
];

/** Shorts: media serving, upload pipeline, feed, comments, reactions, subscriptions, views and points. */
export function shortsRoutes(deps: AppDeps, notifications: Notifications): FastifyPluginAsyncZod {
  return async (app) => {
    const { config, database, clock } = deps;
    const storage = createStorage(config);
    const limits = {
      maxVideoBytes: config.UPLOAD_MAX_VIDEO_MB * MB,
      maxThumbnailBytes: config.UPLOAD_MAX_THUMBNAIL_MB * MB,
      maxDurationSeconds: config.UPLOAD_MAX_DURATION_SECONDS,
    };
    const pipeline = new ShortsPipeline(database.db, clock, storage, () => resolveMediaTools(config), limits, app.log);
    pipelines.set(database, pipeline);
    const ranking = createRanking(database.db, clock);
    const service = createShortsService(database.db, clock, config.MEDIA_BASE_URL, ranking);
    await notifications.subscribe('feed_changed', () => ranking.forgetCursors());
    // The freshness term moves on even when nobody reads the feed (lazy reads catch up otherwise).
    const refreshTimer = setInterval(() => ranking.ensureFresh().catch(() => undefined), RANK_REFRESH_MS);
    refreshTimer.unref();
    app.addHook('onClose', async () => clearInterval(refreshTimer));

    app.addHook('onReady', () => pipeline.recover());
    app.addHook('onClose', () => pipeline.close());

    await app.register(mediaRoutes(storage));
    await app.register(fastifyMultipart, {
      limits: { fileSize: limits.maxVideoBytes, files: 2, fields: 8, fieldSize: 4096, parts: 10 },
    });

    app.get(
      '/api/public/shorts/feeds',
      {
        config: { access: 'optional' },
        schema: { tags, summary: '쇼츠 피드', querystring: feedQuery, response: { 200: feedResponse, 400: errorBody } },
      },
      async (request) => ok(await service.feed(request.query, request.customerId)),
    );

    app.get(
      '/api/shorts/feeds',
      {
        schema: {
          tags,
          summary: '쇼츠 피드 (로그인)',
          querystring: feedQuery,
          response: { 200: feedResponse, ...errors },
        },
      },
      async (request) => ok(await service.feed(request.query, requireCustomer(request))),
    );

    app.get(
      '/api/public/shorts/:id',
      {
        config: { access: 'optional' },
        schema: { tags, summary: '쇼츠 한 편', params: idParams, response: { 200: oneShortResponse, ...errors } },
      },
      async (request) =>
        ok({ ...(await service.one(request.params.id, request.customerId)), mediaBaseUrl: service.mediaBaseUrl }),
    );

    app.get(
      '/api/shorts/:id/status',
      {
        schema: { tags, summary: '내 영상 처리 상태', params: idParams, response: { 200: statusResponse, ...errors } },
      },
      async (request) => ok(await service.status(request.params.id, requireCustomer(request))),
    );

    app.get(
      '/api/public/shorts/feeds/:id/comments',
      {
        config: { access: 'optional' },
        schema: { tags, summary: '댓글 목록', params: idParams, response: { 200: commentsResponse, ...errors } },
      },
      async (request) => ok({ data: await service.comments(request.params.id, request.customerId) }),
    );

    app.post(
      '/api/shorts/feeds/:id/comments',
      {
        schema: {
          tags,
          summary: '댓글 작성',
          params: idParams,
          body: createCommentRequest,
          response: { 200: createCommentResponse, ...errors },
        },
      },
      async (request) =>
        ok(
          await service.addComment(request.params.id, requireCustomer(request), request.body),
          '댓글이 등록되었습니다.',
        ),
    );

    app.delete(
      '/api/shorts/feeds/:id/comments/:commentId/delete',
      {
        schema: {
          tags,
          summary: '댓글 삭제 (본인)',
          params: commentParams,
          querystring: deleteCommentQuery,
          response: { 200: deleteCommentResponse, ...errors },
        },
      },
      async (request) =>
        ok(
          await service.deleteComment(request.params.id, request.params.commentId, requireCustomer(request)),
          '댓글이 삭제되었습니다.',
        ),
    );

    app.post(
      '/api/shorts/feeds/:id/reactions',
      {
        schema: {
          tags,
          summary: '좋아요 / 싫어요',
          params: idParams,
          body: reactionRequest,
          response: { 200: reactionResponse, ...errors },
        },
      },
      async (request) => ok(await service.react(request.params.id, requireCustomer(request), request.body.type)),
    );

    app.post(
      '/api/shorts/subscribe/:targetId',
      {
        schema: { tags, summary: '구독', params: targetParams, response: { 200: subscriptionResponse, ...errors } },
      },
      async (request) =>
        ok(await service.subscribe(requireCustomer(request), request.params.targetId), '구독했습니다.'),
    );

    app.delete(
      '/api/shorts/mypage/subscription',
      {
        schema: {
          tags,
          summary: '구독 취소',
          querystring: targetQuery,
          response: { 200: subscriptionResponse, ...errors },
        },
      },
      async (request) =>
        ok(await service.unsubscribe(requireCustomer(request), request.query.targetId), '구독이 취소되었습니다.'),
    );

    app.post(
      '/api/shorts/:id/views',
      { schema: { tags, summary: '시청 시작', params: idParams, response: { 200: viewResponse, ...errors } } },
      async (request) => ok(await service.openView(request.params.id, requireCustomer(request))),
    );

    app.get(
      '/api/shorts/point/today',
      { schema: { tags, summary: '오늘 받은 시청 포인트', response: { 200: envelope(watchToday), ...errors } } },
      async (request) => ok(await service.watchToday(requireCustomer(request))),
    );

    app.post(
      '/api/shorts/point/earn',
      {
        schema: { tags, summary: '시청 포인트 적립', body: earnRequest, response: { 200: earnResult, ...errors } },
      },
      async (request) => service.earn(requireCustomer(request), request.body.shortsId, request.body.watchedSeconds),
    );

    app.post(
      '/api/upload',
      {
        schema: {
          tags,
          summary: '쇼츠 업로드 (multipart: video, thumbnail?, title, content)',
          consumes: ['multipart/form-data'],
          response: { 200: uploadResponse, 413: errorBody, 415: errorBody, ...errors },
        },
      },
      async (request) => {
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
      },
    );
  };
}
