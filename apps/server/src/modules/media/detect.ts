import { open } from 'node:fs/promises';

export type VideoKind = 'mp4' | 'mov' | 'webm';
export type ImageKind = 'jpg' | 'png' | 'webp';

async function head(file: string, length = 32): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The video container from the file's first bytes, never from its name (docs/rules/shorts.md#S6). */
export async function detectVideo(file: string): Promise<VideoKind | null> {
  const bytes = await head(file);
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    return bytes.toString('latin1', 8, 12) === 'qt  ' ? 'mov' : 'mp4';
  }
  // QuickTime files may start with other atoms before ftyp.
  if (bytes.length >= 8 && ['moov', 'mdat', 'wide', 'free'].includes(bytes.toString('latin1', 4, 8))) return 'mov';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  return null;
}

export async function detectImage(file: string): Promise<ImageKind | null> {
  const bytes = await head(file);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 8 && bytes.toString('hex', 0, 8) === '89504e470d0a1a0a') return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}
