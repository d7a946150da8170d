import type { Db } from '../db/client';
import { addApiKeys } from '../modules/merchants/keys';
import { DEMO_MERCHANTS, ensureDemoMerchants } from './demo-merchants';

/**
 * Demo-only API keys for the demo merchants: the first gets DEMO_MERCHANT_KEY itself, the others
 * `<key>-2`, `<key>-3`, … in DEMO_MERCHANTS order (listed in the README). Idempotent.
 */
export function demoMerchantKeys(baseKey: string): Array<{ name: string; category: string; key: string }> {
  return DEMO_MERCHANTS.map((m, index) => ({ ...m, key: index === 0 ? baseKey : `${baseKey}-${index + 1}` }));
}

export async function ensureDemoMerchantKeys(db: Db, baseKey: string): Promise<void> {
  const ids = await ensureDemoMerchants(db);
  await addApiKeys(
    db,
    demoMerchantKeys(baseKey).flatMap(({ name, key }) => {
      const merchantId = ids.get(name as (typeof DEMO_MERCHANTS)[number]['name']);
      return merchantId === undefined ? [] : [{ merchantId, key }];
    }),
  );
}
