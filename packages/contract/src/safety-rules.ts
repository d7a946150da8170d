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
  /**
   * The summed hiding weight of reports that hides an item until a moderator decides, in hundredths of a
   * trusted reporter's report: three customers of standing (docs/rules/shorts.md#S11, REPORT_WEIGHT).
   */
  autoHideWeight: 300,
  /** A reporter's reports a rolling hour and a rolling day at most (S11). */
  reportsPerHour: 10,
  reportsPerDay: 30,
  /** The longest upload ban an operator may give at once. */
  maxBanDays: 365,
  reportTextMax: 300,
} as const;

/**
 * What one report weighs, in hundredths, by its reporter's standing (docs/rules/shorts.md#S11, ADR 0174):
 * an account's age, a completed payment, and how moderators ruled on the reporter's earlier reports.
 */
export const REPORT_WEIGHT = {
  /** By the account's age: under a day, under a week, older. */
  newerThanADay: 10,
  newerThanAWeek: 30,
  established: 60,
  /** An established account counts toward hiding only with at least one payment that was not refunded. */
  withPayment: 40,
  /** Each earlier report a moderator upheld (hid), up to `upheldMax`; each one dismissed or restored. */
  perUpheld: 25,
  upheldMax: 50,
  perDismissed: -50,
  max: 150,
  /** Days an account must be old for its reports to hide anything by themselves. */
  establishedDays: 7,
} as const;

export const SAFETY_MSG = {
  reported: '신고가 접수되었습니다. 검토 후 조치할게요.',
  alreadyReported: '이미 신고한 콘텐츠입니다.',
  selfReport: '내 콘텐츠는 신고할 수 없습니다.',
  reportsPerHour: `신고는 1시간에 ${BLOCK_AND_REPORT.reportsPerHour}건까지 할 수 있어요. 잠시 후 다시 시도해 주세요.`,
  reportsPerDay: `신고는 하루에 ${BLOCK_AND_REPORT.reportsPerDay}건까지 할 수 있어요. 내일 다시 시도해 주세요.`,
  blocked: '차단했어요. 이 크리에이터의 쇼츠와 댓글이 더 이상 보이지 않아요.',
  unblocked: '차단을 해제했어요.',
  /** A blocked creator's channel, in place of their videos, subscribe button and counts. */
  blockedProfile: '차단한 크리에이터예요. 차단을 해제하면 영상을 볼 수 있어요.',
  selfBlock: '나 자신은 차단할 수 없습니다.',
  otherNeedsText: '기타 사유를 입력해주세요.',
  /** An upload-banned creator's upload (docs/rules/shorts.md#S14), with the KST date the ban ends. */
  uploadBanned: (until: string) => `운영정책 위반으로 ${until}까지 쇼츠를 올릴 수 없습니다.`,
} as const;
