import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { MerchantService } from '../merchants/service';
import { createOpsCustomerActions } from './customers-actions';
import { createOpsCustomerReads } from './customers-reads';

/**
 * The console's customer service: what support and risk look up (`customers-reads.ts`) and what they do
 * (`customers-actions.ts`), with the SQL of both in `customers-repository.ts`.
 */
export function createOpsCustomersService(
  db: Db,
  clock: Clock,
  merchants: MerchantService,
  onSessionsRevoked: (customerId: number, atSeconds: number) => void,
  /** Keys the hash of a search's query in its audit row (derived from the server's secret). */
  auditKey: Buffer,
) {
  return {
    ...createOpsCustomerReads(db, clock, auditKey),
    ...createOpsCustomerActions(db, clock, merchants, onSessionsRevoked),
  };
}
export type OpsCustomersService = ReturnType<typeof createOpsCustomersService>;
