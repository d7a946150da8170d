import type { QRCode } from 'qrcode';

/*
 * A payment request's QR image, the `qrcode` package's SVG byte for byte, made in about half its time.
 *
 * Left to itself the package picks the mask pattern by applying each of the eight to its matrix and scoring it
 * through a method call per module, which under load was about 70 % of every merchant request's encoding.
 * Here the package encodes once under a fixed mask, and `bestMask` scores the eight patterns with the
 * package's own penalty rules (the standard's N1–N4, in the package's arithmetic) on flat arrays; the winner is
 * then applied and drawn by the package's SVG renderer. So the image is what `QRCode.toString` returns,
 * which qr-image.test.ts checks on many links.
 */

type SvgRenderer = { render: (symbol: QRCode, options: { margin: number }) => string };

/** The encoder and its SVG renderer, loaded on the first payment request rather than at start-up. */
async function loadEncoder() {
  const [{ default: qr }, { default: svg }] = await Promise.all([
    import('qrcode'),
    // @ts-expect-error: the renderer module of the package has no type declarations.
    import('qrcode/lib/renderer/svg-tag.js') as Promise<{ default: SvgRenderer }>,
  ]);
  return { qr, svg };
}
let encoderLoaded: ReturnType<typeof loadEncoder> | undefined;
/** Each `import()` is a round through the module loader, which showed in every call's time: load once. */
const encoder = () => {
  encoderLoaded ??= loadEncoder();
  return encoderLoaded;
};

const ERROR_CORRECTION = 'M';
const MARGIN = 1;

/** The QR image (SVG) of `text` at error correction M with a one-module margin. */
export async function qrSvg(text: string): Promise<string> {
  const { qr, svg } = await encoder();
  const symbol = qr.create(text, { errorCorrectionLevel: ERROR_CORRECTION, maskPattern: 0 });
  const { data, reservedBit, size } = symbol.modules;
  const bits = maskBits(reservedBit, size);
  applyMask(data, bits, 0, data); // back to the unmasked data
  const mask = bestMask(data, bits, size, symbol.errorCorrectionLevel.bit);
  applyMask(data, bits, mask, data);
  writeFormatInfo(data, size, formatBits(symbol.errorCorrectionLevel.bit, mask));
  symbol.maskPattern = mask as QRCode['maskPattern'];
  return svg.render(symbol, { margin: MARGIN });
}

/**
 * Each module's eight mask bits (bit p set when pattern p darkens it, as the standard defines the eight; none
 * for a reserved module: finders, timing, format and version info), in one pass over the matrix. The counters
 * stand for i mod 3, j mod 3 and ⌊j/3⌋; (i·j) mod 2 = (i mod 2)·(j mod 2), (i·j) mod 3 = ((i mod 3)·(j mod 3)) mod 3.
 */
function maskBits(reserved: Uint8Array, size: number): Uint8Array {
  const bits = new Uint8Array(size * size);
  for (let i = 0, i3 = 0; i < size; i++, i3 = i3 === 2 ? 0 : i3 + 1) {
    const i2 = i & 1;
    for (let j = 0, j3 = 0, jThird = 0; j < size; j++) {
      const at = i * size + j;
      if (!reserved[at]) {
        const j2 = j & 1;
        const odd = i2 ^ j2;
        const product2 = i2 & j2;
        const product3 = i3 * j3 === 4 ? 1 : i3 * j3;
        bits[at] =
          (odd === 0 ? 1 : 0) |
          (i2 === 0 ? 2 : 0) |
          (j3 === 0 ? 4 : 0) |
          (i3 + j3 === 0 || i3 + j3 === 3 ? 8 : 0) |
          ((((i >> 1) + jThird) & 1) === 0 ? 16 : 0) |
          (product2 === 0 && product3 === 0 ? 32 : 0) |
          (((product2 + product3) & 1) === 0 ? 64 : 0) |
          (((product3 + odd) & 1) === 0 ? 128 : 0);
      }
      if (++j3 === 3) {
        j3 = 0;
        jThird++;
      }
    }
  }
  return bits;
}

/** `data` with mask pattern `p` XORed in, into `into` (which may be `data` itself). */
function applyMask(data: Uint8Array, bits: Uint8Array, p: number, into: Uint8Array): void {
  for (let at = 0; at < data.length; at++) into[at] = (data[at] as number) ^ (((bits[at] as number) >> p) & 1);
}

/** The 15 format bits: error correction level and mask, BCH(15,5)-protected and XORed with 101010000010010. */
export function formatBits(levelBits: number, mask: number): number {
  const value = (levelBits << 3) | mask;
  let remainder = value << 10;
  for (let bit = 14; bit >= 10; bit--) {
    if ((remainder >> bit) & 1) remainder ^= 0x537 << (bit - 10);
  }
  return ((value << 10) | remainder) ^ 0x5412;
}

/**
 * The format bits' two copies, bit 0 first: down column 8 beside the top-left finder (skipping the timing row)
 * then beside the bottom-left one; along row 8 from the right edge, then beside the top-left finder (skipping
 * the timing column). Plus the always-dark module above the bottom-left finder.
 */
function writeFormatInfo(data: Uint8Array, size: number, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const bit = (bits >> i) & 1;
    const down = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    data[down * size + 8] = bit;
    const across = i < 8 ? size - 1 - i : i === 8 ? 7 : 14 - i;
    data[8 * size + across] = bit;
  }
  data[(size - 8) * size + 8] = 1;
}

/** The mask pattern of lowest penalty (the first of equals), as the package would choose it. */
function bestMask(unmasked: Uint8Array, bits: Uint8Array, size: number, levelBits: number): number {
  const work = new Uint8Array(unmasked.length);
  let best = 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (let p = 0; p < 8; p++) {
    applyMask(unmasked, bits, p, work);
    writeFormatInfo(work, size, formatBits(levelBits, p));
    const score = penalty(work, size);
    if (score < lowest) {
      lowest = score;
      best = p;
    }
  }
  return best;
}

/**
 * N1 (runs of five or more alike in a row or column: 3 + the excess), N2 (alike 2×2 blocks: 3 each), N3
 * (1:1:3:1:1 finder-like patterns with four light modules on one side, 11 modules: 40 each) and N4 (10 per 5 %
 * the dark share strays from half, rounded up as the package does).
 */
export function penalty(m: Uint8Array, size: number): number {
  let points = 0;
  let dark = 0;
  let blocks = 0;
  let finders = 0;
  for (let a = 0; a < size; a++) {
    let rowRun = 0;
    let colRun = 0;
    let rowLast = -1;
    let colLast = -1;
    let rowBits = 0;
    let colBits = 0;
    for (let b = 0; b < size; b++) {
      const inRow = m[a * size + b] as number;
      const inCol = m[b * size + a] as number;
      dark += inRow;
      if (inRow === rowLast) rowRun++;
      else {
        if (rowRun >= 5) points += 3 + rowRun - 5;
        rowLast = inRow;
        rowRun = 1;
      }
      if (inCol === colLast) colRun++;
      else {
        if (colRun >= 5) points += 3 + colRun - 5;
        colLast = inCol;
        colRun = 1;
      }
      rowBits = ((rowBits << 1) & 0x7ff) | inRow;
      colBits = ((colBits << 1) & 0x7ff) | inCol;
      if (b >= 10) {
        if (rowBits === 0x5d0 || rowBits === 0x05d) finders++;
        if (colBits === 0x5d0 || colBits === 0x05d) finders++;
      }
      if (a < size - 1 && b < size - 1) {
        const square = inRow + (m[a * size + b + 1] as number) + (m[(a + 1) * size + b] as number);
        const four = square + (m[(a + 1) * size + b + 1] as number);
        if (four === 0 || four === 4) blocks++;
      }
    }
    if (rowRun >= 5) points += 3 + rowRun - 5;
    if (colRun >= 5) points += 3 + colRun - 5;
  }
  const total = size * size;
  return points + blocks * 3 + finders * 40 + Math.abs(Math.ceil((dark * 100) / total / 5) - 10) * 10;
}
