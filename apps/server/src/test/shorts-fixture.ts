import type { Db } from '../db/client';
import { shorts } from '../db/schema';

/**
 * Playable shorts written straight to the database, for tests about listing and matching rather than
 * media (the upload tests cover the real pipeline). Keys point at no file.
 */
export async function insertShorts(
  db: Db,
  customerId: number,
  items: { title: string; content?: string; createdAt: Date; likeCount?: number; durationMs?: number }[],
): Promise<number[]> {
  if (items.length === 0) return [];
  const rows = await db
    .insert(shorts)
    .values(
      items.map((item, i) => ({
        customerId,
        title: item.title,
        content: item.content ?? '',
        videoKey: `shorts/fixture-${i}.mp4`,
        thumbnailKey: `shorts/fixture-${i}.jpg`,
        durationMs: item.durationMs ?? 5000,
        status: 'READY' as const,
        likeCount: item.likeCount ?? 0,
        createdAt: item.createdAt,
      })),
    )
    .returning({ id: shorts.id });
  return rows.map((r) => r.id);
}
