import { MSG } from '@ohgood/contract/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

/** Maps every failure to the one error shape: `{success:false, code, message}` with a real status. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ success: false, code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.code === 'FST_ERR_VALIDATION') {
      return reply.status(400).send({ success: false, code: 'VALIDATION_ERROR', message: MSG.validation });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send({ success: false, code: 'PAYLOAD_TOO_LARGE', message: '파일이 너무 큽니다.' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return reply
        .status(415)
        .send({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: '지원하지 않는 형식입니다.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ success: false, code: 'BAD_REQUEST', message: MSG.validation });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, code: 'INTERNAL_ERROR', message: MSG.serverError });
  });
}
