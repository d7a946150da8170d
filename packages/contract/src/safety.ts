import { z } from 'zod';
import { defineEndpoint, enveloped } from './endpoint';
import { dbId, plainText } from './input';
import { BLOCK_AND_REPORT, REPORT_REASONS, REPORT_TARGETS } from './safety-rules';

/** A customer's report of a short or a comment (docs/rules/shorts.md#S10); one per customer per item. */
export const reportRequest = z
  .object({
    targetType: z.enum(REPORT_TARGETS),
    targetId: dbId(),
    reason: z.enum(REPORT_REASONS),
    text: plainText().trim().max(BLOCK_AND_REPORT.reportTextMax).optional(),
  })
  .strict()
  .refine((body) => body.reason !== 'OTHER' || (body.text ?? '').length > 0, {
    message: '기타 사유를 입력해주세요.',
    path: ['text'],
  });
export type ReportRequest = z.infer<typeof reportRequest>;
export const reportResponse = enveloped(z.object({ reportId: z.number().int() }));

export const blockParams = z.object({ customerId: dbId() });
export const blockResponse = enveloped(z.object({ customerId: z.number().int(), blocked: z.boolean() }));
export const blockedCreator = z.object({
  customerId: z.number().int(),
  nickname: z.string(),
  profileImg: z.string().nullable(),
  blockedAt: z.string(),
});
export type BlockedCreator = z.infer<typeof blockedCreator>;
export const blocksResponse = enveloped(z.array(blockedCreator));

export const safetyEndpoints = {
  report: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/reports',
    body: reportRequest,
    response: reportResponse,
    access: 'customer',
    summary: '쇼츠 · 댓글 신고하기',
    tags: ['shorts'],
  }),
  block: defineEndpoint({
    method: 'POST',
    path: '/api/shorts/blocks/:customerId',
    params: blockParams,
    response: blockResponse,
    access: 'customer',
    summary: '크리에이터 차단하기',
    tags: ['shorts'],
  }),
  unblock: defineEndpoint({
    method: 'DELETE',
    path: '/api/shorts/blocks/:customerId',
    params: blockParams,
    response: blockResponse,
    access: 'customer',
    summary: '차단 해제',
    tags: ['shorts'],
  }),
  blocks: defineEndpoint({
    method: 'GET',
    path: '/api/shorts/blocks',
    response: blocksResponse,
    access: 'customer',
    summary: '차단한 크리에이터 목록',
    tags: ['shorts'],
  }),
} as const;
