import type { StaffRole } from '@ohgood/contract/endpoint';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { staff, staffEnrolments } from '../../db/schema';
import { isUniqueViolation, type Tx, withTx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import { ENROLMENT_MS, hashToken, newEnrolmentToken } from '../two-factor/enrolment-token';
import { newTotpSecret } from '../two-factor/totp';
import { type Actor, writeAudit } from './audit';
import { actorOf, type StaffPrincipal } from './staff-principal';
import { endSessions } from './staff-sessions';

function staffRowOf(row: typeof staff.$inferSelect) {
  return {
    staffId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    enrolled: row.enrolledAt !== null,
    disabled: row.disabledAt !== null,
  };
}

/** A new operator with a fresh TOTP secret and a one-time enrolment token (its hash is stored). */
export async function createStaffAccount(
  db: Db,
  clock: Clock,
  input: { email: string; name: string; role: StaffRole },
  by: Actor,
  reason: string,
): Promise<{ staffId: number; enrolmentToken: string }> {
  const enrolmentToken = newEnrolmentToken();
  try {
    return await withTx(db, (tx) => insertStaff(tx, clock, input, by, reason, enrolmentToken));
  } catch (error) {
    if (isUniqueViolation(error, 'staff_email_key'))
      throw conflict('STAFF_EMAIL_TAKEN', '이미 등록된 운영자 이메일입니다.');
    throw error;
  }
}

async function insertStaff(
  tx: Tx,
  clock: Clock,
  input: { email: string; name: string; role: StaffRole },
  by: Actor,
  reason: string,
  enrolmentToken: string,
) {
  const email = input.email.trim().toLowerCase();
  const [row] = await tx
    .insert(staff)
    .values({ email, name: input.name, role: input.role, totpSecret: newTotpSecret(), createdAt: clock.now() })
    .returning({ id: staff.id });
  const staffId = row?.id ?? 0;
  const expiresAt = new Date(clock.now().getTime() + ENROLMENT_MS);
  await tx.insert(staffEnrolments).values({ tokenHash: hashToken(enrolmentToken), staffId, expiresAt });
  await writeAudit(tx, by, clock.now(), {
    action: 'staff.create',
    targetType: 'staff',
    targetId: staffId,
    reason,
    after: { email, name: input.name, role: input.role },
  });
  return { staffId, enrolmentToken };
}

/** What an admin does about operators (docs/rules/operations.md#O1): list them, change a role, disable one. */
export function createStaffAdmin(db: Db, clock: Clock) {
  return {
    createStaff: (input: { email: string; name: string; role: StaffRole }, by: Actor, reason: string) =>
      createStaffAccount(db, clock, input, by, reason),

    async list() {
      return (await db.select().from(staff).orderBy(asc(staff.id))).map(staffRowOf);
    },

    async setRole(by: StaffPrincipal, staffId: number, role: StaffRole, reason: string) {
      return withTx(db, async (tx) => {
        const [before] = await tx.select().from(staff).where(eq(staff.id, staffId)).for('update');
        if (!before) throw notFound('STAFF_NOT_FOUND', '운영자를 찾을 수 없습니다.');
        const [after] = await tx.update(staff).set({ role }).where(eq(staff.id, staffId)).returning();
        // A new role takes effect at the next sign-in: end the operator's open sessions.
        await endSessions(tx, staffId, clock.now());
        await writeAudit(tx, actorOf(by), clock.now(), {
          action: 'staff.role',
          targetType: 'staff',
          targetId: staffId,
          reason,
          before: { role: before.role },
          after: { role },
        });
        return staffRowOf(after ?? before);
      });
    },

    /** Disables an operator: their sessions end now and sign-in refuses them. Not oneself (the last admin). */
    async disable(by: StaffPrincipal, staffId: number, reason: string) {
      if (by.staffId === staffId) throw conflict('STAFF_SELF_DISABLE', '자기 자신은 사용 중지할 수 없습니다.');
      return withTx(db, async (tx) => {
        const [before] = await tx.select().from(staff).where(eq(staff.id, staffId)).for('update');
        if (!before) throw notFound('STAFF_NOT_FOUND', '운영자를 찾을 수 없습니다.');
        if (before.disabledAt) throw conflict('STAFF_ALREADY_DISABLED', '이미 사용 중지된 운영자입니다.');
        const now = clock.now();
        const [after] = await tx.update(staff).set({ disabledAt: now }).where(eq(staff.id, staffId)).returning();
        await endSessions(tx, staffId, now);
        await writeAudit(tx, actorOf(by), now, {
          action: 'staff.disable',
          targetType: 'staff',
          targetId: staffId,
          reason,
          before: { disabled: false },
          after: { disabled: true },
        });
        return staffRowOf(after ?? before);
      });
    },
  };
}
