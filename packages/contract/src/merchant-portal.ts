import { z } from 'zod';
import { defineEndpoint, type StaffAccess } from './endpoint';
import { dbId, plainText } from './input';
import { isCalendarDate } from './kst';
import { PAYMENT_REQUEST_STATUSES, requestIdParams } from './payments';

/**
 * The merchant portal's API (ADR 0234–0236): a shop's own people sign in with a password and a TOTP code
 * (`/api/merchant/portal/*`), read their payments, refund with a reason and manage their API keys. The
 * payments list is a merchant call (an API key opens it too); sign-in, refunds with a reason and keys are the
 * portal's own (a session, never a key: a key must not mint keys).
 */

const tags = ['merchant-portal'] as const;
const code = z.string().regex(/^\d{6}$/);
const done = z.object({ ok: z.literal(true) });

export const portalSignInRequest = z
  .object({ email: z.string().trim().max(254), password: z.string().max(128) })
  .strict();
export const portalSignInResponse = z.object({ token: z.string(), stage: z.literal('TOTP') });
export const portalTotpRequest = z.object({ code }).strict();

export const portalMe = z.object({
  merchantUserId: z.number().int(),
  email: z.string(),
  name: z.string(),
  merchantId: z.number().int(),
  merchantName: z.string(),
  idleMinutes: z.number().int(),
});
export type PortalMe = z.infer<typeof portalMe>;

export const portalEnrolmentParams = z.object({ token: z.string().min(20).max(100) });
export const portalEnrolmentInfo = z.object({
  email: z.string(),
  name: z.string(),
  merchantName: z.string(),
  otpauthUri: z.string(),
  qrSvg: z.string(),
  /** The secret as text, for an authenticator that cannot scan. */
  secret: z.string(),
});
export const portalEnrolRequest = z.object({ password: z.string().min(12).max(128), code }).strict();

/* ---- payments ---- */

const calendarDate = z.string().refine((value) => isCalendarDate(value), 'YYYY-MM-DD');

export const PORTAL_PAGE_SIZE = 20;

export const portalPaymentsQuery = z
  .object({
    /** KST days, both included. */
    from: calendarDate.optional(),
    to: calendarDate.optional(),
    status: z.enum(PAYMENT_REQUEST_STATUSES).optional(),
    /** The shop's own order id, exactly. */
    orderId: plainText().trim().min(1).max(64).optional(),
    /** From the previous page's `nextCursor`. */
    cursor: z
      .string()
      .regex(/^\d{1,20}_[0-9a-f-]{36}$/)
      .optional(),
    limit: z.coerce.number().int().min(1).max(100).default(PORTAL_PAGE_SIZE),
  })
  .strict();

export const portalPayment = z.object({
  requestId: z.string(),
  orderId: z.string(),
  requestName: z.string(),
  totalPrice: z.number().int(),
  status: z.enum(PAYMENT_REQUEST_STATUSES),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type PortalPayment = z.infer<typeof portalPayment>;
export const portalPaymentsResponse = z.object({ items: z.array(portalPayment), nextCursor: z.string().nullable() });

/** Why the shop refunds: kept with who did it. */
export const portalRefundRequest = z.object({ reason: plainText().trim().min(2).max(200) }).strict();

/* ---- API keys ---- */

export const portalKey = z.object({
  keyId: z.number().int(),
  /** The key's last four characters; null for a key made before the portal. */
  hint: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type PortalKey = z.infer<typeof portalKey>;
export const portalKeysResponse = z.object({ items: z.array(portalKey) });
export const portalKeyParams = z.object({ keyId: dbId() });
/** The key itself is answered once: only its hash is kept. */
export const portalNewKey = z.object({ keyId: z.number().int(), apiKey: z.string() });

export const portalEndpoints = {
  signIn: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/auth/sign-in',
    body: portalSignInRequest,
    response: portalSignInResponse,
    access: 'public',
    summary: '가맹점 포털 로그인 1단계 (비밀번호)',
    tags,
  }),
  verifyTotp: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/auth/totp',
    body: portalTotpRequest,
    response: portalMe,
    access: 'merchant-portal-pending',
    summary: '가맹점 포털 로그인 2단계 (인증 앱 코드)',
    tags,
  }),
  signOut: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/auth/sign-out',
    response: done,
    access: 'merchant-portal',
    summary: '가맹점 포털 로그아웃 (세션 종료)',
    tags,
  }),
  me: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/portal/me',
    response: portalMe,
    access: 'merchant-portal',
    summary: '로그인한 가맹점 사용자',
    tags,
  }),
  enrolment: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/portal/enrolment/:token',
    params: portalEnrolmentParams,
    response: portalEnrolmentInfo,
    access: 'public',
    summary: '가맹점 사용자 등록 링크 확인 (TOTP QR)',
    tags,
  }),
  enrol: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/enrolment/:token',
    params: portalEnrolmentParams,
    body: portalEnrolRequest,
    response: done,
    access: 'public',
    summary: '가맹점 사용자 등록 (비밀번호 설정, 일회용)',
    tags,
  }),
  refund: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/payments/:requestId/refund',
    params: requestIdParams,
    body: portalRefundRequest,
    response: portalPayment,
    access: 'merchant-portal',
    summary: '결제 환불 (사유 기록, 90일 이내)',
    tags,
  }),
  keys: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/portal/keys',
    response: portalKeysResponse,
    access: 'merchant-portal',
    summary: 'API 키 목록',
    tags,
  }),
  createKey: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/keys',
    response: portalNewKey,
    status: 201,
    access: 'merchant-portal',
    summary: 'API 키 발급 (한 번만 표시)',
    tags,
  }),
  rotateKey: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/keys/:keyId/rotate',
    params: portalKeyParams,
    response: portalNewKey,
    access: 'merchant-portal',
    summary: 'API 키 교체 (새 키 발급, 기존 키 즉시 폐기)',
    tags,
  }),
  revokeKey: defineEndpoint({
    method: 'POST',
    path: '/api/merchant/portal/keys/:keyId/revoke',
    params: portalKeyParams,
    response: done,
    access: 'merchant-portal',
    summary: 'API 키 폐기',
    tags,
  }),
} as const;

/** The merchant's payments list: a merchant call like the payment requests (a key or a portal session). */
export const merchantPaymentsEndpoints = {
  payments: defineEndpoint({
    method: 'GET',
    path: '/api/merchant/payments',
    query: portalPaymentsQuery,
    response: portalPaymentsResponse,
    access: 'merchant',
    summary: '가맹점 결제 목록 (기간 · 상태 · 주문번호, 커서 페이지)',
    tags: ['merchant'],
  }),
} as const;

/* ---- the console's side: merchant users ---- */

const ADMINISTER: StaffAccess = { staff: ['ADMIN'] };
const reason = plainText().trim().min(2).max(500);

export const merchantUserRow = z.object({
  merchantUserId: z.number().int(),
  email: z.string(),
  name: z.string(),
  enrolled: z.boolean(),
  disabled: z.boolean(),
  openSessions: z.number().int(),
});
export const merchantUsersResponse = z.object({ items: z.array(merchantUserRow) });
export const createMerchantUserRequest = z
  .object({
    email: z.string().trim().toLowerCase().max(254).email(),
    name: plainText().trim().min(1).max(50),
    reason,
  })
  .strict();
export const createMerchantUserResponse = z.object({ merchantUserId: z.number().int(), enrolmentUrl: z.string() });
const idParams = z.object({ id: dbId() });

export const merchantUserOpsEndpoints = {
  merchantUsers: defineEndpoint({
    method: 'GET',
    path: '/api/ops/merchants/:id/users',
    params: idParams,
    response: merchantUsersResponse,
    access: ADMINISTER,
    summary: '가맹점 사용자 목록',
    tags: ['ops'],
  }),
  createMerchantUser: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/users',
    params: idParams,
    body: createMerchantUserRequest,
    response: createMerchantUserResponse,
    access: ADMINISTER,
    summary: '가맹점 사용자 추가 (일회용 등록 링크)',
    tags: ['ops'],
  }),
  endMerchantUserSessions: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchant-users/:id/end-sessions',
    params: idParams,
    body: z.object({ reason }).strict(),
    response: done,
    access: ADMINISTER,
    summary: '가맹점 사용자 세션 모두 종료',
    tags: ['ops'],
  }),
} as const;
