import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { deepLink } from './payment-requests-reads';
import { penalty, qrSvg } from './qr-image';

const packageSvg = (text: string) => QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });

describe('the QR image of a payment request', () => {
  it('is the qrcode package’s own SVG for deep links of every token length and origin in use', async () => {
    const origins = ['https://pay.ohgood.kr', 'http://127.0.0.1:3000', 'https://ohgood.test/', 'http://localhost'];
    const masks = new Set<number>();
    for (let i = 0; i < 240; i++) {
      const origin = origins[i % origins.length] as string;
      const link = deepLink(origin, randomBytes(12 + (i % 20)).toString('base64url'));
      expect(await qrSvg(link)).toBe(await packageSvg(link));
      masks.add(QRCode.create(link, { errorCorrectionLevel: 'M' }).maskPattern as number);
    }
    // The links above made the package choose most of the eight masks, so each pattern's arithmetic is checked.
    expect(masks.size).toBeGreaterThanOrEqual(6);
  });

  it('matches the package on texts long enough to carry version information (version 7 and up)', async () => {
    for (const length of [160, 300, 600]) {
      const text = `https://ohgood.test/qrpin?code=${randomBytes(length).toString('base64url')}`;
      expect(QRCode.create(text, { errorCorrectionLevel: 'M' }).version).toBeGreaterThanOrEqual(7);
      expect(await qrSvg(text)).toBe(await packageSvg(text));
    }
  });

  it('scores a matrix by the standard’s rules: runs, blocks, finder-like patterns and the dark share', () => {
    // 11×11 all light: each of 22 lines is one run of 11 (3 + 6), 100 blocks of four, dark share 0 % (10 × 10).
    expect(penalty(new Uint8Array(121), 11)).toBe(22 * 9 + 100 * 3 + 100);
    // Checkerboards: no run, no block, no finder pattern. 60 of 121 dark (49.6 %) is within the 50 % step; 61
    // dark (50.4 %) strays into the next one.
    const board = (dark: number) =>
      Uint8Array.from({ length: 121 }, (_, at) => (Math.floor(at / 11) + (at % 11) + dark) % 2);
    expect(penalty(board(0), 11)).toBe(0);
    expect(penalty(board(1), 11)).toBe(10);
  });
});
