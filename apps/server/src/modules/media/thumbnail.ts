import { AppError } from '../../lib/errors';

/**
 * Images above this many pixels are refused before they are decoded: a 109 KB PNG can declare 30000×30000
 * (900 million pixels, gigabytes once decoded). 40 MP holds any phone photo.
 */
export const THUMBNAIL_MAX_PIXELS = 40_000_000;
/** The stored thumbnail's longest side, like the first-frame poster. */
const THUMBNAIL_MAX_SIDE = 720;

/**
 * An uploaded thumbnail as stored: decoded under a pixel limit, turned upright by its EXIF orientation,
 * scaled down to at most 720 px, flattened on white and re-encoded as a JPEG, so the public feed never
 * serves the uploader's bytes (or their metadata, such as GPS tags) as they came.
 */
export async function renderThumbnail(input: string, output: string): Promise<void> {
  // Loaded on first use: sharp's native module costs start-up time most runs never need.
  const { default: sharp } = await import('sharp');
  try {
    await sharp(input, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
      .rotate()
      .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toFile(output);
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError(413, 'FILE_TOO_LARGE', '썸네일 이미지의 해상도가 너무 큽니다. (최대 4,000만 화소)');
    }
    throw new AppError(415, 'UNSUPPORTED_IMAGE', '썸네일은 jpeg, png, webp 이미지만 가능합니다.');
  }
}
