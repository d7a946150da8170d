/** The `qrcode` package, imported on the first QR image rather than at start-up, and once: each `import()` is a
 * trip through the module loader, which showed in every payment request's time. */
const loadEncoder = async () => (await import('qrcode')).default;
let encoder: ReturnType<typeof loadEncoder> | undefined;

/** The QR image (SVG) of `text`: error correction M, a one-module margin, the package's own mask choice. */
export async function qrSvg(text: string): Promise<string> {
  encoder ??= loadEncoder();
  const qr = await encoder;
  return qr.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}
