import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline as pump } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { LIMITS } from '@ohgood/contract/limits';
import { shortsEndpoints as api, type FeedQuery } from '@ohgood/contract/shorts';
import { discoveryEndpoints } from '@ohgood/contract/shorts-discovery';
import { SHORTS_MSG } from '@ohgood/contract/shorts-rules';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type AppCaches, publicCommentsPath, publicShortPath } from '../../caches';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { PublicRoute } from '../../http/public-cache';
import { ok, okWithCode } from '../../lib/envelope';
import { AppError, badRequest } from '../../lib/errors';
import { makeWorkDir, removeWorkDir } from '../../lib/work-dir';
import type { CommentsService } from './comments-service';
import type { FeedService } from './feed-service';
import { mb, type ShortsPipeline, tooLarge } from './pipeline';
import type { ReactionsService } from './reactions-service';
import type { SubscriptionsService } from './subscriptions-service';
import type { UploadStatusService } from './upload-status-service';
import type { WatchPointsService } from './watch-points-service';

/** The id of a per-short route's canonical path (no query, no leading zeros), else undefined: not kept. */
function canonicalKey(request: FastifyRequest, pathOf: (id: number) => string): string | undefined {
  const id = Number((request.params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const path = pathOf(id);
  return request.url === path ? path : undefined;
}

/**
 * Public answers the same for every anonymous caller, kept in their caches: the feed (page, size, keyword) and
 * search (query, cursor, limit) by URL, one short and its comments by the short's canonical path, so a change
 * to that short names them.
 */
export function publicShortsRoutes(caches: AppCaches): Record<string, PublicRoute> {
  return {
    [api.publicFeed.path]: { cache: caches.publicFeed, keyOf: (request) => request.url },
    [discoveryEndpoints.search.path]: { cache: caches.publicSearch, keyOf: (request) => request.url },
    [api.one.path]: { cache: caches.publicShort, keyOf: (request) => canonicalKey(request, publicShortPath) },
    [api.comments.path]: {
      cache: caches.publicComments,
      keyOf: (request) => canonicalKey(request, publicCommentsPath),
    },
  };
}

export interface ShortsRouteDeps {
  feed: FeedService;
  uploadStatus: UploadStatusService;
  comments: CommentsService;
  reactions: ReactionsService;
  subscriptions: SubscriptionsService;
  watchPoints: WatchPointsService;
  pipeline: ShortsPipeline;
  /** Refuses an upload-banned creator (docs/rules/shorts.md#S14) before any byte is read. */
  mayUpload: (customerId: number) => Promise<void>;
  /** Scratch directory for incoming uploads (under DATA_DIR, cleaned at start). */
  workDir: string;
}

/** Shorts over HTTP: upload, feed, comments, reactions, subscriptions, views and points (built in app.ts). */
export function shortsRoutes(deps: ShortsRouteDeps): FastifyPluginAsync {
  const {
    feed,
    uploadStatus,
    comments,
    reactions,
    subscriptions,
    watchPoints,
    pipeline,
    mayUpload,
    workDir: work,
  } = deps;
  return async (app) => {
    const limits = pipeline.limits;
    await app.register(fastifyMultipart, {
      limits: { fileSize: limits.maxVideoBytes, files: 2, fields: 8, fieldSize: 4096, parts: 10 },
    });

    /** A page served to a known customer starts a watch of each short on it (docs/rules/shorts.md#S16). */
    const feedPage = async (query: FeedQuery, viewer: number | null) => {
      const page = await feed.feedJson(query, viewer);
      if (viewer !== null) await watchPoints.served(viewer, page.shortIds);
      return page.json;
    };

    registerEndpoint(app, api.publicFeed, (request) => feedPage(request.query, request.customerId));

    registerEndpoint(app, api.feed, (request) => feedPage(request.query, requireCustomer(request)));

    registerEndpoint(app, api.one, async (request) => {
      const item = await feed.one(request.params.id, request.customerId);
      if (request.customerId !== null) await watchPoints.served(request.customerId, [item.shortsId]);
      return { ...item, mediaBaseUrl: feed.mediaBaseUrl };
    });

    registerEndpoint(app, api.status, async (request) =>
      ok(await uploadStatus.status(request.params.id, requireCustomer(request))),
    );

    registerEndpoint(app, api.comments, async (request) => comments.comments(request.params.id, request.customerId));

    registerEndpoint(app, api.addComment, async (request) =>
      ok(
        await comments.addComment(request.params.id, requireCustomer(request), request.body),
        '댓글이 등록되었습니다.',
      ),
    );

    registerEndpoint(app, api.deleteComment, async (request) =>
      ok(
        await comments.deleteComment(request.params.id, request.params.commentId, requireCustomer(request)),
        '댓글이 삭제되었습니다.',
      ),
    );

    registerEndpoint(app, api.react, async (request) =>
      ok(await reactions.react(request.params.id, requireCustomer(request), request.body.type)),
    );

    registerEndpoint(app, api.subscribe, async (request) =>
      okWithCode(await subscriptions.subscribe(requireCustomer(request), request.params.targetId), '구독했습니다.'),
    );

    registerEndpoint(app, api.unsubscribe, async (request) =>
      okWithCode(
        await subscriptions.unsubscribe(requireCustomer(request), request.query.targetId),
        '구독이 취소되었습니다.',
      ),
    );

    registerEndpoint(app, api.openView, async (request) =>
      ok(await watchPoints.openView(request.params.id, requireCustomer(request))),
    );

    registerEndpoint(app, api.watchToday, async (request) =>
      ok(await watchPoints.watchToday(requireCustomer(request))),
    );

    registerEndpoint(app, api.earn, async (request) =>
      watchPoints.earn(requireCustomer(request), request.body.shortsId, request.body.watchedSeconds),
    );

    /**
     * The upload's scratch directory, made while the creator's ban is looked up (each waits its turn on the
     * event loop under load); a banned creator's directory is removed and no byte of the body is read.
     */
    const scratchForAllowedUpload = async (customerId: number): Promise<string> => {
      const [allowed, made] = await Promise.allSettled([mayUpload(customerId), makeWorkDir(work, 'incoming-')]);
      if (allowed.status === 'rejected') {
        if (made.status === 'fulfilled') await removeWorkDir(made.value, []);
        throw allowed.reason;
      }
      if (made.status === 'rejected') throw made.reason;
      return made.value;
    };

    registerEndpoint(app, api.upload, async (request) => {
      const customerId = requireCustomer(request);
      const dir = await scratchForAllowedUpload(customerId);
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
            await pump(part.file, createWriteStream(target));
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
        // Over the limit, whether the file's stream or the form's next part noticed it first.
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw tooLarge(`파일은 ${mb(limits.maxVideoBytes)}MB 이하만 올릴 수 있습니다.`);
        }
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
          throw badRequest('UPLOAD_TOO_MANY_PARTS', '업로드 형식이 올바르지 않습니다.');
        }
        throw error;
      } finally {
        await removeWorkDir(dir, [join(dir, 'video'), join(dir, 'thumbnail')]);
      }
    });
  };
}
