/**
 * Reports, blocks and moderation of the shorts community (docs/rules/shorts.md#S10–S14), as plain constants
 * free of zod so screens can list the reasons without the schemas.
 */
export const REPORT_TARGETS = ['SHORT', 'COMMENT'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_REASONS = ['SPAM', 'SEXUAL', 'VIOLENCE', 'HATE', 'COPYRIGHT', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  SPAM: '스팸·광고',
  SEXUAL: '음란물',
  VIOLENCE: '폭력·위험',
  HATE: '혐오·괴롭힘',
  COPYRIGHT: '저작권',
  OTHER: '기타',
};

export const MODERATION_ACTIONS = ['HIDE', 'RESTORE', 'DISMISS'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const BLOCK_AND_REPORT = {
  /** Distinct customers' reports that hide an item until a moderator decides (docs/rules/shorts.md#S11). */
  autoHideReports: 3,
  /** The longest upload ban an operator may give at once. */
  maxBanDays: 365,
  reportTextMax: 300,
} as const;

export const SAFETY_MSG = {
  reported: '신고가 접수되었습니다. 검토 후 조치할게요.',
  alreadyReported: '이미 신고한 콘텐츠입니다.',
  selfReport: '내 콘텐츠는 신고할 수 없습니다.',
  blocked: '차단했어요. 이 크리에이터의 쇼츠와 댓글이 더 이상 보이지 않아요.',
  unblocked: '차단을 해제했어요.',
  selfBlock: '나 자신은 차단할 수 없습니다.',
  otherNeedsText: '기타 사유를 입력해주세요.',
  /** An upload-banned creator's upload (docs/rules/shorts.md#S14), with the KST date the ban ends. */
  uploadBanned: (until: string) => `운영정책 위반으로 ${until}까지 쇼츠를 올릴 수 없습니다.`,
} as const;
