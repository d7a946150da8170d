import { and, inArray, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, shorts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { settleDeletions } from './owed-deletions';
import type { MediaStorage, StoredObject } from './storage';

/**
 * The key prefixes whose objects the app's rows account for: a short's video, poster and waiting original,
 * and profile photos. Demo and seeded media (`demo/`, chat product images) are left alone.
 */
const SWEPT_PREFIXES = ['shorts/', 'incoming/', 'avatars/'] as const;

/** Younger objects may belong to an upload still in flight (stored before its row is written). */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;

/** Listed objects checked against the rows per query. */
const PAGE = 500;

export interface SweepOutcome {
  owedDeleted: number;
  owedFailed: number;
  orphansDeleted: number;
}

/**
 * The media sweep (docs/rules/shorts.md#S18), run on the scheduler: retries the deletes owed for failed
 * shorts, then removes objects under the swept prefixes that no row refers to and that are older than a
 * day. A FAILED short's keys count as unreferenced. Everything it deletes is idempotent, so instances may
 * sweep at the same time.
 */
export async function sweepMedia(db: Db, storage: MediaStorage, clock: Clock): Promise<SweepOutcome> {
  const owed = await settleDeletions(db, storage, clock);
  const cutoff = clock.now().getTime() - ORPHAN_MIN_AGE_MS;
  let orphansDeleted = 0;
  for (const prefix of SWEPT_PREFIXES) {
    let page: StoredObject[] = [];
    const flush = async () => {
      orphansDeleted += await deleteUnreferenced(db, storage, page);
      page = [];
    };
    for await (const object of storage.list(prefix)) {
      if (object.lastModified.getTime() > cutoff) continue;
      page.push(object);
      if (page.length >= PAGE) await flush();
    }
    await flush();
  }
  return { owedDeleted: owed.deleted, owedFailed: owed.failed, orphansDeleted };
}

async function deleteUnreferenced(db: Db, storage: MediaStorage, objects: StoredObject[]): Promise<number> {
  if (objects.length === 0) return 0;
  const keys = objects.map((object) => object.key);
  const referenced = new Set(await referencedKeys(db, keys));
  const orphans = keys.filter((key) => !referenced.has(key));
  for (const key of orphans) await storage.delete(key);
  return orphans.length;
}

/** Which of `keys` a live short (any status but FAILED) or a profile still points at. */
async function referencedKeys(db: Db, keys: string[]): Promise<string[]> {
  const [shortRows, profileRows] = await Promise.all([
    db
      .select({ video: shorts.videoKey, thumbnail: shorts.thumbnailKey, source: shorts.sourceKey })
      .from(shorts)
      .where(
        and(
          ne(shorts.status, 'FAILED'),
          or(inArray(shorts.videoKey, keys), inArray(shorts.thumbnailKey, keys), inArray(shorts.sourceKey, keys)),
        ),
      ),
    db.select({ img: customers.profileImg }).from(customers).where(inArray(customers.profileImg, keys)),
  ]);
  return [
    ...shortRows.flatMap((row) => [row.video, row.thumbnail, row.source]),
    ...profileRows.map((row) => row.img),
  ].filter((key): key is string => key !== null);
}
