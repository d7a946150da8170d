import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline as pump } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { errorBody } from '@ohgood/contract/envelope';
import {
  DISCOVERY_LIMITS,
  DISCOVERY_MSG,
  profileEditFields,
  profileEditResponse,
  profileQuery,
  profileResponse,
} from '@ohgood/contract/shorts-discovery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCustomer } from '../../http/auth-guard';
import { ok } from '../../lib/envelope';
import { AppError, badRequest } from '../../lib/errors';
import type { ProfileService } from './service';

const tags = ['shorts-profile'];
const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

/** Channel profile and profile edit (spec §7). Both need a token; the owner is the token's customer. */
export function profileRoutes(service: ProfileService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: DISCOVERY_LIMITS.profileImageMaxBytes, files: 1, fields: 4, fieldSize: 2048, parts: 6 },
    });

    app.get(
      '/api/shorts/profile',
      {
        schema: {
          tags,
          summary: '채널 프로필 (targetId 없으면 내 프로필; page 0부터, 12개씩)',
          querystring: profileQuery,
          response: { 200: profileResponse, ...errors },
        },
      },
      async (request) => ok(await service.profile(requireCustomer(request), request.query)),
    );

    app.post(
      '/api/shorts/profile/edit',
      {
        schema: {
          tags,
          summary: '내 프로필 수정 (multipart: nickname, introduce, profileImg?)',
          consumes: ['multipart/form-data'],
          response: { 200: profileEditResponse, 413: errorBody, 415: errorBody, ...errors },
        },
      },
      async (request) => {
        const owner = requireCustomer(request);
        if (!request.isMultipart()) throw badRequest('MULTIPART_REQUIRED', '업로드 형식이 올바르지 않습니다.');
        const dir = await mkdtemp(join(tmpdir(), 'ohgood-profile-'));
        try {
          const fields: Record<string, string> = {};
          let imageFile: string | null = null;
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'profileImg') {
                part.file.resume();
                continue;
              }
              const target = join(dir, 'upload');
              await pump(part.file, createWriteStream(target));
              // The stream stops at the limit and flags it (busboy), without failing the request by itself.
              if (part.file.truncated) {
                throw new AppError(413, 'FILE_TOO_LARGE', DISCOVERY_MSG.imageTooLarge);
              }
              // An empty file part means "no new photo" (a form that sends the field anyway).
              if (part.file.bytesRead > 0) imageFile = target;
            } else if (typeof part.value === 'string') {
              fields[part.fieldname] = part.value;
            }
          }
          const parsed = profileEditFields.safeParse({ nickname: fields.nickname ?? '', introduce: fields.introduce });
          if (!parsed.success) {
            const nickname = (fields.nickname ?? '').trim();
            if (!nickname) throw badRequest('NICKNAME_REQUIRED', DISCOVERY_MSG.nicknameRequired);
            throw badRequest('PROFILE_INVALID', '이름은 20자, 소개는 100자 이하로 입력해주세요.');
          }
          return ok(await service.edit(owner, parsed.data, imageFile), DISCOVERY_MSG.editSuccess);
        } catch (error) {
          if (error instanceof AppError) throw error;
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'FILE_TOO_LARGE', DISCOVERY_MSG.imageTooLarge);
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
