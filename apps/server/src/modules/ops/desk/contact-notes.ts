import { addDays, kstDate, kstIso } from '@ohgood/contract/kst';
import { type NoteRequest, PROMISE_MAX_DAYS, PROMISE_ROLES } from '@ohgood/contract/ops-desk';
import type { Db } from '../../../db/client';
import { contactNotes } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import type { Clock } from '../../../lib/clock';
import { badRequest, forbidden } from '../../../lib/errors';
import { writeAudit } from '../audit';
import { notFoundCustomer } from '../customers-reads';
import { findCustomer } from '../customers-repository';
import { actorOf, type StaffPrincipal } from '../staff-principal';

/**
 * Contact notes (docs/rules/operations.md#O17): what staff record after a call or a message. Append-only; each
 * note writes its audit row in the same transaction. A promise-to-pay date steers collections (it shows on the
 * overdue list), so only the roles that collect may set one; support notes the call without it.
 */

export async function addContactNote(db: Db, clock: Clock, by: StaffPrincipal, customerId: number, note: NoteRequest) {
  const promiseDate = note.promiseDate ?? null;
  if (promiseDate !== null && !PROMISE_ROLES.includes(by.role))
    throw forbidden('FORBIDDEN', '납부 약속일은 리스크 담당자만 기록할 수 있습니다.');
  const now = clock.now();
  const today = kstDate(now);
  if (promiseDate !== null && (promiseDate < today || promiseDate > addDays(today, PROMISE_MAX_DAYS)))
    throw badRequest(
      'INVALID_PROMISE_DATE',
      `납부 약속일은 오늘부터 ${PROMISE_MAX_DAYS}일 안으로 정해 주세요.`,
      'promiseDate',
    );
  return withTx(db, async (tx) => {
    if (!(await findCustomer(tx, customerId))) throw notFoundCustomer();
    const [row] = await tx
      .insert(contactNotes)
      .values({
        customerId,
        staffId: by.staffId,
        staffName: by.name,
        channel: note.channel,
        outcome: note.outcome,
        promiseDate,
        body: note.body,
        createdAt: now,
      })
      .returning({ id: contactNotes.id });
    const noteId = row?.id as number;
    // The text stays in the note; the audit row says who noted what kind of contact, and any promise.
    await writeAudit(tx, actorOf(by), now, {
      action: 'customer.note',
      targetType: 'customer',
      targetId: customerId,
      reason: '',
      after: { noteId, channel: note.channel, outcome: note.outcome, promiseDate },
    });
    return { noteId, at: kstIso(now) };
  });
}
