import { randomBytes } from 'node:crypto';
import { DISCOVERY_LIMITS } from '@ohgood/contract/shorts-discovery-rules';
import { AppError } from '../../lib/errors';
import { detectImage } from '../media/detect';

export const unsupportedImage = () =>
  new AppError(415, 'UNSUPPORTED_IMAGE', '이미지 파일(JPEG, PNG, WebP)만 올릴 수 있습니다.');

/**
 * A profile photo as stored: the type is detected from the bytes (never the name or the client's
 * Content-Type), then decoded, turned upright by its EXIF orientation, cropped to a centred square and
 * re-encoded as a small WebP. Re-encoding also drops metadata such as GPS tags.
 */
export async function renderAvatar(input: string, output: string): Promise<void> {
  if (!(await detectImage(input))) throw unsupportedImage();
  // Loaded on first use: sharp's native module costs ~0.3 s of start-up that most runs never need.
  const { default: sharp } = await import('sharp');
  try {
    await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(DISCOVERY_LIMITS.avatarSize, DISCOVERY_LIMITS.avatarSize, { fit: 'cover', position: 'centre' })
      .webp({ quality: 80 })
      .toFile(output);
  } catch {
    // Right magic bytes, but not a decodable image.
    throw unsupportedImage();
  }
}

/** A fresh, unguessable storage key; keys are never rewritten, so media can be cached forever. */
export function avatarKey(): string {
  return `avatars/${randomBytes(16).toString('hex')}.webp`;
}
