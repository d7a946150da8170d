/* Texts of bills and daily rewards, zod-free so the web app can import them without the schema runtime. */

import { won } from './number-format';

/** The Korean validation and result texts for bills, shared by server and web. */
export const BILL_MSG = {
  noSelection: '선택된 결제 내역이 없습니다.',
  extensionNotAllowed: '연장 신청이 불가능 합니다.',
  /** The refusal with the rule that applies (docs/rules/bills-and-grades.md#B5). */
  extensionNotIssued: '연장 신청이 불가능 합니다. 아직 청구되지 않은 이번 달 이용분은 연장할 수 없어요.',
  extensionOverdue: '연장 신청이 불가능 합니다. 연체된 청구서는 연장할 수 없어요.',
  extensionPastDue: '연장 신청이 불가능 합니다. 납부일(15일)이 지난 청구서는 연장할 수 없어요.',
  alreadyExtended: '이미 연장 신청되었습니다.',
  extensionSuccess: '연장 신청되었습니다.',
  extensionFailed: '연장 신청에 실패했습니다.',
  repaySuccess: '즉시 납부 신청되었습니다.',
  repayFailed: '즉시 납부 신청에 실패했습니다.',
  oldestFirst: '이전 달 결제 내역부터 납부해주세요.',
  invalidLines: '납부할 수 없는 결제 내역이 포함되어 있습니다.',
  alreadyPaid: '이미 납부된 결제 내역이 포함되어 있습니다.',
  /** An early payment of lines autopay is debiting right now (docs/rules/bills-and-grades.md#B18). */
  autopayInProgress:
    '자동 납부로 출금하고 있는 내역이에요. 은행의 답을 받는 대로 알려 드릴게요. 잠시 후 다시 확인해 주세요.',
  suspended: '연체된 청구서가 있어 결제가 정지되었습니다. 연체 금액을 납부하면 바로 해제됩니다.',
} as const;

/**
 * A monthly limit risk changed (docs/rules/operations.md#O8), as its 결제·청구 notice and the /payment card
 * say it: '월 한도가 100,000원에서 50,000원으로 조정됐어요.' ('원' always takes '으로').
 */
export const limitChangedText = (from: number, to: number): string =>
  `월 한도가 ${won(from)}에서 ${won(to)}으로 조정됐어요.`;

/** Attendance roulette texts. */
export const CHECKIN_MSG = {
  alreadyDone: '오늘은 이미 출석체크를 완료했어요. 내일 다시 만나요!',
  failed: '출석체크에 실패했습니다. 잠시 후 다시 시도해주세요.',
} as const;
