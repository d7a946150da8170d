import type { CreatePaymentRequestBody, PaymentRequestStatus, PaymentRequestView } from '@ohgood/contract/payments';
import type { Db } from '../../db/client';
import type { Tx } from '../../db/tx';
import type { Clock } from '../../lib/clock';
import { createPaymentRequestActions } from './payment-requests-actions';
import { createPaymentRequestReads } from './payment-requests-reads';
import type { RequestRow } from './payment-requests-repository';
import { newPinCode } from './pin-code';

export interface MerchantService {
  create(merchantId: number, body: CreatePaymentRequestBody, origin: string): Promise<PaymentRequestView>;
  get(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView>;
  cancel(merchantId: number, requestId: string, origin: string): Promise<PaymentRequestView>;
  /**
   * `alsoInTx` runs inside the refund's transaction once it is done (the console's audit row), so the two
   * commit together.
   */
  refund(
    merchantId: number,
    requestId: string,
    origin: string,
    alsoInTx?: (tx: Tx, refunded: RequestRow) => Promise<void>,
  ): Promise<PaymentRequestView>;
  /** Current status and expiry only, for the live stream. */
  status(merchantId: number, requestId: string): Promise<{ status: PaymentRequestStatus; expiresAt: Date }>;
}

/**
 * A merchant's payment requests: what the merchant does (`payment-requests-actions.ts`) and reads
 * (`payment-requests-reads.ts`), with the SQL of both in `payment-requests-repository.ts`. `drawPin` is the PIN
 * source; tests pass a scripted one to make draws collide.
 */
export function createMerchantService(
  db: Db,
  clock: Clock,
  ttlSeconds: number,
  drawPin: () => string = newPinCode,
): MerchantService {
  return { ...createPaymentRequestActions(db, clock, ttlSeconds, drawPin), ...createPaymentRequestReads(db, clock) };
}
