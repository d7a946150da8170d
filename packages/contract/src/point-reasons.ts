/*
 * Why a point ledger row exists (docs/rules/points.md#R2). The database stores the code (a CHECK
 * constraint holds the column to this list) and queries filter by it; the Korean label is only the
 * edge's business: the point history answers it as `pointExplain`, so rewording a label is a one-line
 * change here, not a data migration.
 */
export const POINT_REASON_CODES = [
  'PURCHASE_EARN',
  'PURCHASE_USE',
  'CHECKIN_ROULETTE',
  'WATCH_REWARD',
  'REFUND_USE_RETURN',
  'REFUND_EARN_CANCEL',
] as const;
export type PointReason = (typeof POINT_REASON_CODES)[number];

/** The text the point history shows for each reason, as `pointExplain` (docs/rules/points.md#R2). */
export const POINT_REASON_LABELS: Readonly<Record<PointReason, string>> = {
  PURCHASE_EARN: '결제 적립',
  PURCHASE_USE: '포인트 사용',
  CHECKIN_ROULETTE: '출석 체크',
  WATCH_REWARD: '숏폼 시청',
  REFUND_USE_RETURN: '결제 취소',
  REFUND_EARN_CANCEL: '적립 취소',
};
