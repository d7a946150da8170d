import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline as pump } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { isDisplayable } from '@ohgood/contract/input';
import { discoveryEndpoints as api, profileEditFields } from '@ohgood/contract/shorts-discovery';
import { DISCOVERY_LIMITS, DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import type { FastifyPluginAsync } from 'fastify';
import { requireCustomer } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import { ok, okWithCode } from '../../lib/envelope';
import { AppError, badRequest } from '../../lib/errors';
import type { ProfileService } from './service';

/** Channel profile and profile edit (docs/rules/api.md#A1). Both need a token; the owner is the token's customer. */
export function profileRoutes(service: ProfileService): FastifyPluginAsync {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: DISCOVERY_LIMITS.profileImageMaxBytes, files: 1, fields: 4, fieldSize: 2048, parts: 6 },
    });

    registerEndpoint(app, api.profile, async (request) =>
      ok(await service.profile(requireCustomer(request), request.query)),
    );

    registerEndpoint(app, api.editProfile, async (request) => {
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
          if (!isDisplayable(fields.nickname ?? '') || !isDisplayable(fields.introduce ?? '')) {
            throw badRequest('PROFILE_INVALID', DISCOVERY_MSG.invisibleChars);
          }
          throw badRequest('PROFILE_INVALID', '이름은 20자, 소개는 100자 이하로 입력해주세요.');
        }
        return okWithCode(await service.edit(owner, parsed.data, imageFile), DISCOVERY_MSG.editSuccess);
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
    });
  };
}
