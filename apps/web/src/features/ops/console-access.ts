import { type Endpoint, isStaffAccess, type StaffRole } from '@ohgood/contract/endpoint';
import { monthEndEndpoints } from '@ohgood/contract/month-end';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { opsCollectionsEndpoints as collections } from '@ohgood/contract/ops-collections';
import { opsDeskEndpoints as desk } from '@ohgood/contract/ops-desk';

/** Each role in Korean, with its name as the contract spells it. */
export const ROLE_LABELS: Record<StaffRole, string> = {
  SUPPORT: '상담 (SUPPORT)',
  RISK: '리스크 (RISK)',
  MODERATOR: '모더레이터 (MODERATOR)',
  ADMIN: '관리자 (ADMIN)',
};

/**
 * What an operator's role may use, read from the contract's declarations (`access` on each endpoint): the
 * console hides what the server would refuse, from the same source, so the two cannot disagree. The server
 * still enforces every call.
 */
export function canCall(endpoint: Endpoint, role: StaffRole): boolean {
  return isStaffAccess(endpoint.access) && endpoint.access.staff.includes(role);
}

export type Section =
  | 'home'
  | 'lists'
  | 'customers'
  | 'collections'
  | 'reconciliation'
  | 'month-end'
  | 'jobs'
  | 'moderation'
  | 'merchants'
  | 'staff'
  | 'audit';

/** Each screen and the endpoint that opens it: a role that may not call it does not see the screen. */
const SECTIONS: ReadonlyArray<{ id: Section; label: string; opens: Endpoint }> = [
  { id: 'home', label: '홈', opens: api.home },
  { id: 'lists', label: '업무 목록', opens: desk.pendingVerificationList },
  { id: 'customers', label: '고객', opens: api.searchCustomers },
  { id: 'collections', label: '수납', opens: collections.collectionList },
  { id: 'reconciliation', label: '대사', opens: api.reconciliations },
  // Open to whoever may export a file; the report inside to those who may read it.
  { id: 'month-end', label: '월말 보고서', opens: monthEndEndpoints.exportPayments },
  { id: 'jobs', label: '예약 작업', opens: collections.jobs },
  { id: 'moderation', label: '신고 검토', opens: api.moderation },
  { id: 'merchants', label: '가맹점', opens: api.merchants },
  { id: 'staff', label: '운영자', opens: api.staff },
  { id: 'audit', label: '감사 기록', opens: api.audit },
];

export function sectionsFor(role: StaffRole): Array<{ id: Section; label: string }> {
  return SECTIONS.filter((s) => canCall(s.opens, role)).map(({ id, label }) => ({ id, label }));
}
