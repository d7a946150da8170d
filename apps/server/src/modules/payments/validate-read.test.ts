import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { createMerchant, grantPoints } from '../../test/merchant-fixture';
import { createRequest } from '../../test/payment-helpers';

// Validate's one read is a statement built once per code type (`readValidate`): validates that arrive together,
// by PIN and by QR, each still get the answer of their own customer, code and clock.

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

  it('reads a malformed code, a held code past its expiry and a closed failure window right', async () => {
    const [payer, guesser] = [await h.signUp(), await h.signUp()];
    const request = await createRequest(h, merchant.headers, 1_400);
    expect((await validate(payer.token, 'pincode', request.pinCode)).statusCode).toBe(200);
    // Held, but expired by now: the read's own clock value decides it, not the one of the statement's first use.
    h.clock.advance(121_000);
    const expired = await validate(payer.token, 'pincode', request.pinCode);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().code).toBe('INVALID_CODE');

    const guessersOwn = await createRequest(h, merchant.headers, 1_600);
    expect((await validate(guesser.token, 'qrcode', guessersOwn.qrCode)).statusCode).toBe(200);
    // Malformed codes match nothing and count as failed guesses, like wrong ones; the sixth look is refused.
    const answers = [];
    for (const [codeType, value] of [
      ['pincode', 'abc'],
      ['qrcode', 'not a qr code'],
      ['pincode', '000000'],
      ['qrcode', 'https://example.invalid/pay?t=x'],
      ['pincode', '000001'],
      ['pincode', '000002'],
    ] as const) {
      answers.push((await validate(guesser.token, codeType, value)).json().code);
    }
    expect(answers).toEqual([...Array(5).fill('INVALID_CODE'), 'TOO_MANY_CODE_ATTEMPTS']);
    // The window is closed for a right code too, even the guesser's own held one (which needs no write, so only
    // the read refuses it), while the payer's own window stays open.
    const ownAgain = await validate(guesser.token, 'qrcode', guessersOwn.qrCode);
    expect(ownAgain.json().code).toBe('TOO_MANY_CODE_ATTEMPTS');
    const fresh = await createRequest(h, merchant.headers, 1_500);
    expect((await validate(guesser.token, 'pincode', fresh.pinCode)).json().code).toBe('TOO_MANY_CODE_ATTEMPTS');
    expect((await validate(payer.token, 'pincode', fresh.pinCode)).json()).toMatchObject({ price: 1_500 });
  });
});
