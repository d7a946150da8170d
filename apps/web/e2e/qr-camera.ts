import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import QRCode from 'qrcode';
import { ffmpeg } from './media-tools';

export const e2eTmp = join(dirname(fileURLToPath(import.meta.url)), '.tmp');

/** The y4m path Chromium's fake camera plays (see fakeCameraLaunchOptions) for a spec. */
export function cameraFile(name: string): string {
  return join(e2eTmp, `${name}.y4m`);
}

/** Writes a y4m showing the QR deep link of `qrCode` the whole time, as a phone held over a checkout. */
export async function writeQrCameraVideo(y4m: string, qrCode: string): Promise<void> {
  mkdirSync(e2eTmp, { recursive: true });
  const png = y4m.replace(/\.y4m$/, '.png');
  await QRCode.toFile(png, `http://127.0.0.1/qrpin?code=${qrCode}`, { width: 360, margin: 4 });
  execFileSync(ffmpeg, [
    '-y',
    '-loglevel',
    'error',
    '-loop',
    '1',
    '-i',
    png,
    '-t',
    '2',
    '-r',
    '10',
    '-vf',
    'scale=360:360,pad=640:480:140:60:white,format=yuv420p',
    y4m,
  ]);
}
