import { inArray } from 'drizzle-orm';
import { merchants } from '../db/schema';
import type { Executor } from '../db/tx';

/** Demo merchants, one or more per spending category (docs/rules/report.md#D3). Shared by every demo seed step. */
export const DEMO_MERCHANTS = [
  { name: '스타벅스 강남점', category: '식비' },
  { name: '배달의민족', category: '식비' },
  { name: '올리브영', category: '쇼핑/패션/뷰티' },
  { name: 'SKT 통신요금', category: '고정비' },
  { name: '카카오T', category: '교통비' },
  { name: 'GS25', category: '생활' },
  { name: 'CGV 용산', category: '여가/문화/교육' },
  { name: '동네세탁소', category: '기타' },
] as const;
export type DemoMerchantName = (typeof DEMO_MERCHANTS)[number]['name'];

/**
 * Creates the demo merchants that do not exist yet (matched by name, so it is idempotent and other seed
 * steps can call it too) and returns every demo merchant's id by name.
 */
export async function ensureDemoMerchants(db: Executor): Promise<Map<DemoMerchantName, number>> {
  const names = DEMO_MERCHANTS.map((m) => m.name);
  const existing = await db
    .select({ id: merchants.id, name: merchants.name })
    .from(merchants)
    .where(inArray(merchants.name, names));
  const known = new Set(existing.map((row) => row.name));
  const missing = DEMO_MERCHANTS.filter((m) => !known.has(m.name));
  const inserted =
    missing.length > 0
      ? await db
          .insert(merchants)
          .values(missing.map((m) => ({ name: m.name, category: m.category })))
          .returning({ id: merchants.id, name: merchants.name })
      : [];
  const ids = new Map<DemoMerchantName, number>();
  // The lowest id wins if a name was ever inserted twice (e.g. two seeders racing on first start).
  for (const row of [...existing, ...inserted].sort((a, b) => b.id - a.id)) {
    ids.set(row.name as DemoMerchantName, row.id);
  }
  return ids;
}
