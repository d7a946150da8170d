import { z } from 'zod';
import { defineEndpoint, STAFF_ROLES, type StaffAccess } from './endpoint';
import { dbId, plainText } from './input';
import { trialBalanceResponse } from './ledger';
import { reconciliationDetail, reconciliationParams, reconciliationsResponse } from './reconciliation';
import { BLOCK_AND_REPORT, MODERATION_ACTIONS, REPORT_REASONS, REPORT_TARGETS } from './safety-rules';

/**
 * The operator console's API (`/api/ops/*`, docs/rules/operations.md). Every endpoint names the roles that may
 * call it right here, next to its path; the server's guard enforces exactly this declaration and a
 * table-driven test walks it (a console endpoint without a role list cannot be declared, and is refused).
 */

/** Who may do what (docs/rules/operations.md#O1): RISK adds to SUPPORT, ADMIN may do everything. */
const READ_CUSTOMERS: StaffAccess = { staff: ['SUPPORT', 'RISK', 'ADMIN'] };
const CHANGE_CUSTOMERS: StaffAccess = { staff: ['RISK', 'ADMIN'] };
/** The money's books: who may read the reconciliation (RISK watches money, ADMIN everything). */
const READ_BOOKS: StaffAccess = { staff: ['RISK', 'ADMIN'] };
const MODERATE: StaffAccess = { staff: ['MODERATOR', 'ADMIN'] };
const ADMINISTER: StaffAccess = { staff: ['ADMIN'] };
const ANY_STAFF: StaffAccess = { staff: STAFF_ROLES };

export const staffRole = z.enum(STAFF_ROLES);

/** Why an operator acts: required on every change and every reveal, kept in the audit trail. */
export const reason = plainText().trim().min(2).max(500);

export const staffMe = z.object({
  staffId: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  idleMinutes: z.number().int(),
});
export type StaffMe = z.infer<typeof staffMe>;

export const signInRequest = z.object({ email: z.string().trim().max(254), password: z.string().max(128) }).strict();
export const signInResponse = z.object({ token: z.string(), stage: z.literal('TOTP') });
export const totpRequest = z.object({ code: z.string().regex(/^\d{6}$/) }).strict();

export const enrolmentParams = z.object({ token: z.string().min(20).max(100) });
export const enrolmentInfo = z.object({
  email: z.string(),
  name: z.string(),
  role: staffRole,
  otpauthUri: z.string(),
  qrSvg: z.string(),
  /** The secret as text, for an authenticator that cannot scan. */
  secret: z.string(),
});
export const enrolRequest = z
  .object({
    password: z.string().min(12).max(128),
    code: z.string().regex(/^\d{6}$/),
  })
  .strict();
export const done = z.object({ ok: z.literal(true) });

export const staffAlert = z.object({
  id: z.number().int(),
  kind: z.string(),
  subject: z.string(),
  message: z.string(),
  raisedAt: z.string(),
});
export type StaffAlert = z.infer<typeof staffAlert>;

export const homeResponse = z.object({
  date: z.string(),
  payments: z.object({ count: z.number().int(), amount: z.number().int() }),
  refunds: z.object({ count: z.number().int(), amount: z.number().int() }),
  overdueCustomers: z.number().int(),
  /** Today's autopay debits that failed (the bank refused; tried again the next day). */
  autopayFailures: z.number().int(),
  openReports: z.number().int(),
  /** The latest reconciled day and its mismatch count (docs/rules/bills-and-grades.md#B20); null before any. */
  reconciliation: z.object({ day: z.string(), mismatches: z.number().int() }).nullable(),
  /** Alerts staff have not seen resolved yet (ADR 0200), newest first. */
  alerts: z.array(staffAlert),
});
export type OpsHome = z.infer<typeof homeResponse>;

/* ---- customers ---- */

export const customerSearchQuery = z.object({ q: plainText().trim().min(1).max(100) });
/** Personal data masked (docs/rules/operations.md#O4): name 김*굿, email de**@ohgood.kr, account ****6789. */
export const customerRow = z.object({
  customerId: z.number().int(),
  name: z.string(),
  email: z.string(),
  account: z.string(),
  gradeName: z.string(),
  suspended: z.boolean(),
});
export type OpsCustomerRow = z.infer<typeof customerRow>;
export const customerSearchResponse = z.object({ items: z.array(customerRow) });

export const auditRow = z.object({
  auditId: z.number().int(),
  at: z.string(),
  staffId: z.number().int().nullable(),
  staffName: z.string(),
  role: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  reason: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditRow = z.infer<typeof auditRow>;
export const auditResponse = z.object({ items: z.array(auditRow), nextCursor: z.number().int().nullable() });

export const customerPage = z.object({
  customer: customerRow.extend({
    nickname: z.string(),
    accountName: z.string(),
    createdAt: z.string(),
    gradePoint: z.number().int(),
    /** The monthly limit in force: the grade's, or risk's lower one (docs/rules/operations.md#O8). */
    limit: z.number().int(),
    gradeLimit: z.number().int(),
    /** Risk's own limit, null when the grade's applies. */
    creditLimit: z.number().int().nullable(),
    limitBounds: z.object({ min: z.number().int(), max: z.number().int(), step: z.number().int() }),
    usedThisMonth: z.number().int(),
    pointBalance: z.number().int(),
    staffSuspended: z.boolean(),
    overdueLifted: z.boolean(),
    sessionsRevokedAt: z.string().nullable(),
    uploadBannedUntil: z.string().nullable(),
  }),
  statements: z.array(
    z.object({
      month: z.string(),
      extension: z.string().nullable(),
      overdue: z.boolean(),
      paid: z.boolean(),
      lines: z.array(
        z.object({ paymentId: z.number().int(), requestName: z.string(), price: z.number().int(), status: z.string() }),
      ),
    }),
  ),
  payments: z.array(
    z.object({
      paymentId: z.number().int(),
      date: z.string(),
      requestName: z.string(),
      totalPrice: z.number().int(),
      pointUsed: z.number().int(),
      status: z.string(),
    }),
  ),
  points: z.array(z.object({ date: z.string(), amount: z.number().int(), reason: z.string() })),
  /** The notices the customer was sent (the notification center), newest first. */
  notices: z.array(z.object({ at: z.string(), kind: z.string(), title: z.string(), body: z.string() })),
  lockouts: z.array(z.object({ key: z.string(), count: z.number().int(), until: z.string() })),
  suspensionHistory: z.array(z.object({ at: z.string(), what: z.string() })),
});
export type OpsCustomerPage = z.infer<typeof customerPage>;

export const customerParams = z.object({ id: dbId() });
export const reasonBody = z.object({ reason }).strict();
export const revealRequest = z.object({ field: z.enum(['name', 'email', 'account']), reason }).strict();
export const revealResponse = z.object({ field: z.string(), value: z.string() });
export const customerState = z.object({
  customerId: z.number().int(),
  suspended: z.boolean(),
  staffSuspended: z.boolean(),
  overdueLifted: z.boolean(),
});
export const clearedResponse = z.object({ cleared: z.number().int() });
export const revokedResponse = z.object({ revokedAt: z.string() });
/** Risk sets a customer's limit within the grade's bounds (`creditLimitBounds`); the grade's own limit clears it. */
export const changeLimitRequest = z.object({ limit: z.number().int().min(0).max(10_000_000), reason }).strict();
export const changeLimitResponse = z.object({
  customerId: z.number().int(),
  limit: z.number().int(),
  creditLimit: z.number().int().nullable(),
});
export const paymentParams = z.object({ paymentId: dbId() });
export const refundResponse = z.object({ paymentId: z.number().int(), status: z.string() });

/* ---- merchants ---- */

export const merchantRow = z.object({
  merchantId: z.number().int(),
  name: z.string(),
  category: z.string().nullable(),
  disabled: z.boolean(),
  keys: z.number().int(),
  createdAt: z.string(),
});
export const merchantsResponse = z.object({ items: z.array(merchantRow) });
export const merchantDetail = merchantRow.extend({
  recentRequests: z.array(
    z.object({
      requestId: z.string(),
      orderId: z.string(),
      requestName: z.string(),
      totalPrice: z.number().int(),
      status: z.string(),
      createdAt: z.string(),
    }),
  ),
  recentRefunds: z.array(
    z.object({
      paymentId: z.number().int(),
      requestName: z.string(),
      totalPrice: z.number().int(),
      refundedAt: z.string(),
    }),
  ),
});
export const createMerchantRequest = z
  .object({ name: plainText().trim().min(1).max(50), category: plainText().trim().max(30).optional(), reason })
  .strict();
/** The key is shown once: only its hash is kept. */
export const merchantKeyResponse = z.object({ merchantId: z.number().int(), apiKey: z.string() });

/* ---- staff ---- */

export const staffRow = z.object({
  staffId: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  enrolled: z.boolean(),
  disabled: z.boolean(),
});
export const staffListResponse = z.object({ items: z.array(staffRow) });
export const createStaffRequest = z
  .object({
    email: z.string().trim().toLowerCase().max(254).email(),
    name: plainText().trim().min(1).max(50),
    role: staffRole,
    reason,
  })
  .strict();
export const createStaffResponse = z.object({ staffId: z.number().int(), enrolmentUrl: z.string() });
export const setRoleRequest = z.object({ role: staffRole, reason }).strict();

/* ---- audit ---- */

export const auditQuery = z.object({
  staffId: dbId().optional(),
  action: plainText().max(60).optional(),
  targetType: plainText().max(30).optional(),
  targetId: plainText().max(60).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  before: dbId().optional(),
});

/* ---- moderation ---- */

export const moderationQuery = z.object({ state: z.enum(['OPEN', 'HIDDEN', 'CLOSED']).default('OPEN') });
export const moderationCase = z.object({
  caseId: z.number().int(),
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number().int(),
  state: z.string(),
  autoHidden: z.boolean(),
  reportCount: z.number().int(),
  /**
   * The reports' summed weight by their reporters' standing, in hundredths of a trusted report
   * (docs/rules/shorts.md#S11): the queue is ranked by it.
   */
  reportWeight: z.number().int(),
  reasons: z.array(z.object({ reason: z.enum(REPORT_REASONS), count: z.number().int() })),
  texts: z.array(z.string()),
  creatorId: z.number().int(),
  creatorNickname: z.string(),
  creatorStrikes: z.number().int(),
  /** The reported content: a short's title and its video path (relative), or a comment's text. */
  title: z.string(),
  body: z.string(),
  videoPath: z.string().nullable(),
  /** The short the content is on (a comment's short, or the short itself), and its title. */
  shortsId: z.number().int(),
  shortTitle: z.string(),
  openedAt: z.string(),
});
export type ModerationCase = z.infer<typeof moderationCase>;
export const moderationResponse = z.object({ items: z.array(moderationCase), mediaBaseUrl: z.string() });
export const caseParams = z.object({ caseId: dbId() });
export const decisionRequest = z.object({ action: z.enum(MODERATION_ACTIONS), reason }).strict();
export const creatorParams = z.object({ customerId: dbId() });
export const strikeResponse = z.object({ customerId: z.number().int(), strikes: z.number().int() });
export const uploadBanRequest = z
  .object({ days: z.number().int().min(1).max(BLOCK_AND_REPORT.maxBanDays), reason })
  .strict();
export const uploadBanResponse = z.object({ customerId: z.number().int(), bannedUntil: z.string() });

const tags = ['ops'] as const;

export const opsEndpoints = {
  signIn: defineEndpoint({
    method: 'POST',
    path: '/api/ops/auth/sign-in',
    body: signInRequest,
    response: signInResponse,
    access: 'public',
    summary: '운영자 로그인 (비밀번호)',
    tags,
  }),
  verifyTotp: defineEndpoint({
    method: 'POST',
    path: '/api/ops/auth/totp',
    body: totpRequest,
    response: staffMe,
    access: 'staff-pending',
    summary: '운영자 로그인 (OTP 2단계)',
    tags,
  }),
  signOut: defineEndpoint({
    method: 'POST',
    path: '/api/ops/auth/sign-out',
    response: done,
    access: ANY_STAFF,
    summary: '운영자 로그아웃',
    tags,
  }),
  me: defineEndpoint({
    method: 'GET',
    path: '/api/ops/me',
    response: staffMe,
    access: ANY_STAFF,
    summary: '내 운영자 정보',
    tags,
  }),
  enrolment: defineEndpoint({
    method: 'GET',
    path: '/api/ops/enrolment/:token',
    params: enrolmentParams,
    response: enrolmentInfo,
    access: 'public',
    summary: '운영자 등록 정보 (OTP QR)',
    tags,
  }),
  enrol: defineEndpoint({
    method: 'POST',
    path: '/api/ops/enrolment/:token',
    params: enrolmentParams,
    body: enrolRequest,
    response: done,
    access: 'public',
    summary: '운영자 등록 완료 (비밀번호, OTP 확인)',
    tags,
  }),
  home: defineEndpoint({
    method: 'GET',
    path: '/api/ops/home',
    response: homeResponse,
    access: ANY_STAFF,
    summary: '오늘의 현황',
    tags,
  }),
  searchCustomers: defineEndpoint({
    method: 'GET',
    path: '/api/ops/customers',
    query: customerSearchQuery,
    response: customerSearchResponse,
    access: READ_CUSTOMERS,
    summary: '고객 검색 (이름, 이메일, 고객 번호)',
    tags,
  }),
  customer: defineEndpoint({
    method: 'GET',
    path: '/api/ops/customers/:id',
    params: customerParams,
    response: customerPage,
    access: READ_CUSTOMERS,
    summary: '고객 상세',
    tags,
  }),
  reveal: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/reveal',
    params: customerParams,
    body: revealRequest,
    response: revealResponse,
    access: READ_CUSTOMERS,
    summary: '개인정보 한 항목 보기 (감사 기록)',
    tags,
  }),
  customerAudit: defineEndpoint({
    method: 'GET',
    path: '/api/ops/customers/:id/audit',
    params: customerParams,
    response: auditResponse,
    access: READ_CUSTOMERS,
    summary: '고객의 감사 기록',
    tags,
  }),
  suspend: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/suspend',
    params: customerParams,
    body: reasonBody,
    response: customerState,
    access: CHANGE_CUSTOMERS,
    summary: '결제 정지',
    tags,
  }),
  lift: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/lift',
    params: customerParams,
    body: reasonBody,
    response: customerState,
    access: CHANGE_CUSTOMERS,
    summary: '결제 정지 해제',
    tags,
  }),
  resetLockouts: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/lockouts/reset',
    params: customerParams,
    body: reasonBody,
    response: clearedResponse,
    access: CHANGE_CUSTOMERS,
    summary: '로그인·결제 코드 잠금 초기화',
    tags,
  }),
  revokeSessions: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/sessions/revoke',
    params: customerParams,
    body: reasonBody,
    response: revokedResponse,
    access: CHANGE_CUSTOMERS,
    summary: '고객의 모든 로그인 세션 끊기',
    tags,
  }),
  changeLimit: defineEndpoint({
    method: 'POST',
    path: '/api/ops/customers/:id/limit',
    params: customerParams,
    body: changeLimitRequest,
    response: changeLimitResponse,
    access: CHANGE_CUSTOMERS,
    summary: '한도 변경 (등급 한도 안에서)',
    tags,
  }),
  refund: defineEndpoint({
    method: 'POST',
    path: '/api/ops/payments/:paymentId/refund',
    params: paymentParams,
    body: reasonBody,
    response: refundResponse,
    access: CHANGE_CUSTOMERS,
    summary: '가맹점 대신 환불 (가맹점 환불과 같은 규칙)',
    tags,
  }),
  trialBalance: defineEndpoint({
    method: 'GET',
    path: '/api/ops/ledger/trial-balance',
    response: trialBalanceResponse,
    access: ADMINISTER,
    summary: '원장 시산표 (계정 종류별 차변 · 대변, 균형 여부)',
    tags,
  }),
  merchants: defineEndpoint({
    method: 'GET',
    path: '/api/ops/merchants',
    response: merchantsResponse,
    // Risk finds a merchant here to hold its payouts; managing merchants stays the admin's.
    access: READ_BOOKS,
    summary: '가맹점 목록',
    tags,
  }),
  merchant: defineEndpoint({
    method: 'GET',
    path: '/api/ops/merchants/:id',
    params: customerParams,
    response: merchantDetail,
    access: ADMINISTER,
    summary: '가맹점 상세 (최근 요청, 환불)',
    tags,
  }),
  createMerchant: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants',
    body: createMerchantRequest,
    response: merchantKeyResponse,
    access: ADMINISTER,
    summary: '가맹점 등록 (API 키는 한 번만 표시)',
    tags,
  }),
  disableMerchant: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/disable',
    params: customerParams,
    body: reasonBody,
    response: done,
    access: ADMINISTER,
    summary: '가맹점 사용 중지',
    tags,
  }),
  rotateMerchantKey: defineEndpoint({
    method: 'POST',
    path: '/api/ops/merchants/:id/rotate-key',
    params: customerParams,
    body: reasonBody,
    response: merchantKeyResponse,
    access: ADMINISTER,
    summary: '가맹점 API 키 교체 (새 키는 한 번만 표시)',
    tags,
  }),
  staff: defineEndpoint({
    method: 'GET',
    path: '/api/ops/staff',
    response: staffListResponse,
    access: ADMINISTER,
    summary: '운영자 목록',
    tags,
  }),
  createStaff: defineEndpoint({
    method: 'POST',
    path: '/api/ops/staff',
    body: createStaffRequest,
    response: createStaffResponse,
    access: ADMINISTER,
    summary: '운영자 추가 (일회용 등록 링크)',
    tags,
  }),
  setStaffRole: defineEndpoint({
    method: 'POST',
    path: '/api/ops/staff/:id/role',
    params: customerParams,
    body: setRoleRequest,
    response: staffRow,
    access: ADMINISTER,
    summary: '운영자 역할 변경',
    tags,
  }),
  disableStaff: defineEndpoint({
    method: 'POST',
    path: '/api/ops/staff/:id/disable',
    params: customerParams,
    body: reasonBody,
    response: staffRow,
    access: ADMINISTER,
    summary: '운영자 사용 중지',
    tags,
  }),
  audit: defineEndpoint({
    method: 'GET',
    path: '/api/ops/audit',
    query: auditQuery,
    response: auditResponse,
    access: { staff: ['RISK', 'ADMIN'] },
    summary: '감사 기록 (필터)',
    tags,
  }),
  reconciliations: defineEndpoint({
    method: 'GET',
    path: '/api/ops/reconciliations',
    response: reconciliationsResponse,
    access: READ_BOOKS,
    summary: '일일 대사 (최근 날짜별)',
    tags,
  }),
  reconciliation: defineEndpoint({
    method: 'GET',
    path: '/api/ops/reconciliations/:day',
    params: reconciliationParams,
    response: reconciliationDetail,
    access: READ_BOOKS,
    summary: '하루의 대사 결과와 불일치 내역',
    tags,
  }),
  moderation: defineEndpoint({
    method: 'GET',
    path: '/api/ops/moderation',
    query: moderationQuery,
    response: moderationResponse,
    access: MODERATE,
    summary: '신고 검토 대기열',
    tags,
  }),
  decide: defineEndpoint({
    method: 'POST',
    path: '/api/ops/moderation/:caseId/decision',
    params: caseParams,
    body: decisionRequest,
    response: moderationCase,
    access: MODERATE,
    summary: '숨김 · 복구 · 기각',
    tags,
  }),
  strike: defineEndpoint({
    method: 'POST',
    path: '/api/ops/creators/:customerId/strike',
    params: creatorParams,
    body: reasonBody,
    response: strikeResponse,
    access: MODERATE,
    summary: '크리에이터 경고',
    tags,
  }),
  uploadBan: defineEndpoint({
    method: 'POST',
    path: '/api/ops/creators/:customerId/upload-ban',
    params: creatorParams,
    body: uploadBanRequest,
    response: uploadBanResponse,
    access: MODERATE,
    summary: '업로드 금지 (N일)',
    tags,
  }),
} as const;
