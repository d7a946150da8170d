import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';

// Validates that arrive together share one read (`payment_validate_read_batch`, migration 0013): each still
// gets the answer of its own customer and code.

let h: Harness;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  h = await createHarness();
  merchant = await createMerchant(h.database.db, '묶음상점');
});
afterAll(() => h.close());

const validate = (token: string, codeType: 'pincode' | 'qrcode', value: string) =>
  h.app.inject({ method: 'POST', url: '/api/payment/validate', headers: bearer(token), payload: { codeType, value } });

describe('validates read together', () => {
  it('answers each concurrent validate for its own customer, code type and code', async () => {
    const [pinPayer, qrPayer, guesser, rich] = [await h.signUp(), await h.signUp(), await h.signUp(), await h.signUp()];
    await grantPoints(h.database.db, rich.customerId, 2_500, h.clock.now());
    const [byPin, byQr, forRich] = [
      await createRequest(h, merchant.headers, 1_100),
      await createRequest(h, merchant.headers, 2_200),
      await createRequest(h, merchant.headers, 3_300),
    ];
    const answers = await Promise.all([
      validate(pinPayer.token, 'pincode', byPin.pinCode),
      validate(qrPayer.token, 'qrcode', byQr.qrCode),
      validate(guesser.token, 'pincode', '000000'),
      validate(rich.token, 'pincode', forRich.pinCode),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 404, 200]);
    expect(answers[0]?.json()).toMatchObject({ requestId: byPin.requestId, price: 1_100, point: 0 });
    expect(answers[1]?.json()).toMatchObject({ requestId: byQr.requestId, price: 2_200, point: 0 });
    expect(answers[2]?.json().code).toBe('INVALID_CODE');
    expect(answers[3]?.json()).toMatchObject({ requestId: forRich.requestId, price: 3_300, point: 2_500 });

    // Each again, together: now every one is the customer's own held request, answered without a write.
    const again = await Promise.all([
      validate(pinPayer.token, 'pincode', byPin.pinCode),
      validate(qrPayer.token, 'qrcode', byQr.qrCode),
      validate(rich.token, 'pincode', forRich.pinCode),
    ]);
    expect(again.map((res) => res.json().requestId)).toEqual([byPin.requestId, byQr.requestId, forRich.requestId]);
    // Someone else's held code is refused as reserved, in the same kind of batch.
    const stolen = await validate(guesser.token, 'pincode', byPin.pinCode);
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().code).toBe('REQUEST_RESERVED');
  });
});
