import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentRequests } from '../../db/schema';
import { countingDb } from '../../test/counting-db';
import { createHarness, type Harness } from '../../test/harness';
import { createMerchant } from '../../test/merchant-fixture';
import { createMerchantService } from './service';

let h: Harness;
let merchantId: number;
beforeAll(async () => {
  h = await createHarness();
  merchantId = (await createMerchant(h.database.db)).merchantId;
});
afterAll(() => h.close());

const ORIGIN = 'https://ohgood.test';
let order = 0;
const nextOrder = (totalPrice = 3_000) => ({ orderId: `C-${++order}`, requestName: '커피', totalPrice });

/** A PIN source that answers the given PINs in turn. */
function scripted(...pins: string[]): () => string {
  return () => {
    const pin = pins.shift();
    if (!pin) throw new Error('no scripted PIN left');
    return pin;
  };
}

const rawStatus = async (requestId: string) => {
  const [row] = await h.database.db
    .select({ status: paymentRequests.status })
    .from(paymentRequests)
    .where(eq(paymentRequests.id, requestId));
  return row?.status;
};

describe('creating a payment request', () => {
  it('draws again when a live request holds the drawn PIN, and leaves that request as it was', async () => {
    const service = createMerchantService(h.database.db, h.clock, 120, scripted('111111', '111111', '222222'));
    const live = await service.create(merchantId, nextOrder(), ORIGIN);
    const next = await service.create(merchantId, nextOrder(), ORIGIN);
    expect(live.pinCode).toBe('111111');
    expect(next.pinCode).toBe('222222');
    expect(await rawStatus(live.requestId)).toBe('ACTIVE');
  });

  it('frees an expired request’s PIN by sweeping it EXPIRED when a draw hits it', async () => {
    const service = createMerchantService(h.database.db, h.clock, 120, scripted('333333', '333333', '333333'));
    const old = await service.create(merchantId, nextOrder(), ORIGIN);
    h.clock.advance(121_000);
    const fresh = await service.create(merchantId, nextOrder(), ORIGIN);
    expect(fresh.pinCode).toBe('333333');
    expect(fresh.status).toBe('ACTIVE');
    expect(await rawStatus(old.requestId)).toBe('EXPIRED');
  });

  it('gives up with an error after eight draws that all collide with live requests', async () => {
    const service = createMerchantService(h.database.db, h.clock, 120, scripted(...Array(9).fill('444444')));
    await service.create(merchantId, nextOrder(), ORIGIN);
    await expect(service.create(merchantId, nextOrder(), ORIGIN)).rejects.toThrow('could not allocate a unique PIN');
  });

  it('writes a new order in one statement and answers its repeat with one more read', async () => {
    const { db, counter } = countingDb(h.database.db);
    const service = createMerchantService(db, h.clock, 120);
    const body = nextOrder(4_200);
    const first = await service.create(merchantId, body, ORIGIN);
    expect(counter.statements).toBe(1);
    counter.statements = 0;
    const again = await service.create(merchantId, body, ORIGIN);
    expect(again.requestId).toBe(first.requestId);
    expect(again.pinCode).toBe(first.pinCode);
    expect(counter.statements).toBe(2);
    await expect(service.create(merchantId, { ...body, totalPrice: 4_201 }, ORIGIN)).rejects.toMatchObject({
      code: 'ORDER_ID_CONFLICT',
    });
  });

  it('answers concurrent creates of one order with one request', async () => {
    const service = createMerchantService(h.database.db, h.clock, 120);
    const body = nextOrder(9_900);
    const answers = await Promise.all(Array.from({ length: 6 }, () => service.create(merchantId, body, ORIGIN)));
    expect(new Set(answers.map((answer) => answer.requestId)).size).toBe(1);
    const rows = await h.database.db
      .select({ id: paymentRequests.id })
      .from(paymentRequests)
      .where(eq(paymentRequests.orderId, body.orderId));
    expect(rows).toHaveLength(1);
  });
});
