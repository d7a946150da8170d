import { MSG } from '@ohgood/contract/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorBodyOf } from '../lib/errors';
import { isDependencyOutage, RETRY_AFTER_SECONDS } from '../lib/unavailable';

const HANGUL = /[가-힣]/;

/**
 * The field and rule of a refusal, when the contract states the rule in Korean (the sign-up schema names
 * the field and what it needs in every message). zod's own English texts never reach a customer.
 */
function statedRule(
  issue: { instancePath: string; message?: string; params: Record<string, unknown> } | undefined,
): { message: string; field: string | undefined } | undefined {
  if (!issue?.message || !HANGUL.test(issue.message)) return undefined;
  const unknownKeys = issue.params.keys;
  const field = Array.isArray(unknownKeys) ? String(unknownKeys[0]) : issue.instancePath.split('/')[1];
  return { message: issue.message, field: field || undefined };
}

/** Maps every failure to the one error shape: `{success:false, code, message}` with a real status. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(error.status).send(errorBodyOf(error.code, error.message, error.field));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const told = statedRule(error.validation[0]);
      return reply.status(400).send(errorBodyOf('VALIDATION_ERROR', told?.message ?? MSG.validation, told?.field));
    }
    if (error.code === 'FST_ERR_VALIDATION') {
      return reply.status(400).send(errorBodyOf('VALIDATION_ERROR', MSG.validation));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send(errorBodyOf('PAYLOAD_TOO_LARGE', '파일이 너무 큽니다.'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return reply.status(415).send(errorBodyOf('UNSUPPORTED_MEDIA_TYPE', '지원하지 않는 형식입니다.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBodyOf('BAD_REQUEST', MSG.validation));
    }
    if (isDependencyOutage(error)) {
      // The database or media store is away for a moment: nothing was done, the same request will work.
      request.log.warn({ err: error }, 'dependency unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(errorBodyOf('SERVICE_UNAVAILABLE', MSG.serviceUnavailable));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBodyOf('INTERNAL_ERROR', MSG.serverError));
  });
}

/**
 * Fastify's own early failures (a malformed URL such as `/%c0`), which never reach the error handler: the
 * same shape and no echo of the request's path, which the default body would repeat back to the client.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.status(status).send(errorBodyOf('BAD_REQUEST', MSG.validation));
}
