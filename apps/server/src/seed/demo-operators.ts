import { hash } from '@node-rs/argon2';
import type { StaffRole } from '@ohgood/contract/endpoint';
import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { staff } from '../db/schema';

/**
 * One demo operator per role, with TOTP secrets published in the README (docs/rules/demo-data.md): demo data
 * only. With demo data off they are disabled at start-up, like the published merchant keys.
 */
export const DEMO_OPERATOR_PASSWORD = 'ohgood-ops-123!';
export const DEMO_OPERATORS: ReadonlyArray<{ email: string; name: string; role: StaffRole; totpSecret: string }> = [
  {
    email: 'support@ops.ohgood.kr',
    name: '데모 상담',
    role: 'SUPPORT',
    totpSecret: 'QFYAVACHVKNZFPKF3VQJBMBEAR2IINQE',
  },
  { email: 'risk@ops.ohgood.kr', name: '데모 리스크', role: 'RISK', totpSecret: 'XLYB565EMYZ3HONA3KRDCKY5QGLFVHQ6' },
  {
    email: 'moderator@ops.ohgood.kr',
    name: '데모 모더레이터',
    role: 'MODERATOR',
    totpSecret: 'NPGH446TF7SD64GYCIX4SKQYFGK3DGQM',
  },
  { email: 'admin@ops.ohgood.kr', name: '데모 관리자', role: 'ADMIN', totpSecret: 'QPGIMB3LVH3TATUS5RBTLBV26KZUM6WB' },
];

const demoEmails = DEMO_OPERATORS.map((o) => o.email);

export async function ensureDemoOperators(db: Db, at: Date): Promise<void> {
  const present = await db.select({ email: staff.email }).from(staff).where(inArray(staff.email, demoEmails));
  const missing = DEMO_OPERATORS.filter((o) => !present.some((row) => row.email === o.email));
  // The password is hashed only when an operator is missing: an argon2 hash on every restart costs ~30 ms.
  if (missing.length === 0) return;
  const passwordHash = await hash(DEMO_OPERATOR_PASSWORD);
  await db
    .insert(staff)
    .values(missing.map((o) => ({ ...o, passwordHash, enrolledAt: at, createdAt: at })))
    .onConflictDoNothing();
}

/** With demo data off: the published operators open nothing. Answers how many were still enabled. */
export async function disableDemoOperators(db: Db, at: Date): Promise<number> {
  const rows = await db
    .update(staff)
    .set({ disabledAt: at })
    .where(and(inArray(staff.email, demoEmails), isNull(staff.disabledAt)))
    .returning({ id: staff.id });
  return rows.length;
}
