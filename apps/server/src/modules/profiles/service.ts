import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Profile,
  ProfileEditFields,
  ProfileEditResult,
  ProfileQuery,
  ProfileSort,
} from '@ohgood/contract/shorts-discovery';
import { DISCOVERY_LIMITS, DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { CacheChanges } from '../../cache-changes';
import type { Db } from '../../db/client';
import { customers, shortSubscriptions, shorts } from '../../db/schema';
import { isUniqueViolation, withTx } from '../../db/tx';
import { conflict, notFound } from '../../lib/errors';
import type { MediaStorage } from '../media/storage';
import { notBlockedSql } from '../safety/service';
import { avatarKey, renderAvatar } from './avatar';

const customerNotFound = () => notFound('CUSTOMER_NOT_FOUND', '사용자를 찾을 수 없습니다.');

const ORDER: Record<ProfileSort, SQL[]> = {
  latest: [desc(shorts.createdAt), desc(shorts.id)],
  like: [desc(shorts.likeCount), desc(shorts.createdAt), desc(shorts.id)],
  oldest: [asc(shorts.createdAt), asc(shorts.id)],
};

interface Logger {
  warn(obj: object, msg: string): void;
}

/** Channel profiles and editing one's own (docs/rules/shorts.md#S8). */
export function createProfileService(
  db: Db,
  storage: MediaStorage,
  mediaBaseUrl: string,
  log: Logger,
  changes: Pick<CacheChanges, 'everythingChanged'>,
) {
  return {
    /** A channel: public fields only (no legal name, e-mail or account), 12 shorts per 0-based page. */
    async profile(viewer: number, query: ProfileQuery): Promise<Profile> {
      const target = query.targetId ?? viewer;
      const [owner] = await db
        .select({
          id: customers.id,
          nickname: customers.nickname,
          introduce: customers.introduce,
          img: customers.profileImg,
        })
        .from(customers)
        .where(eq(customers.id, target));
      if (!owner) throw customerNotFound();
      const size = DISCOVERY_LIMITS.profilePageSize;
      // The shorts of a creator the viewer blocked are gone for them here too (docs/rules/shorts.md#S13).
      const ready = and(
        eq(shorts.customerId, target),
        eq(shorts.status, 'READY'),
        notBlockedSql(viewer, shorts.customerId),
      );
      const [list, [subscribers], [videos], [mine]] = await Promise.all([
        db
          .select({ shortsId: shorts.id, thumbnail: shorts.thumbnailKey, likeCount: shorts.likeCount })
          .from(shorts)
          .where(ready)
          .orderBy(...ORDER[query.sortBy])
          .limit(size + 1)
          .offset(query.page * size),
        db.select({ n: count() }).from(shortSubscriptions).where(eq(shortSubscriptions.targetId, target)),
        db.select({ n: count() }).from(shorts).where(ready),
        viewer === target
          ? Promise.resolve([])
          : db
              .select({ n: count() })
              .from(shortSubscriptions)
              .where(and(eq(shortSubscriptions.subscriberId, viewer), eq(shortSubscriptions.targetId, target))),
      ]);
      let isSubscribed: Profile['isSubscribed'] = 'NOT_SUBSCRIBED';
      if (viewer === target) isSubscribed = 'SELF';
      else if ((mine?.n ?? 0) > 0) isSubscribed = 'SUBSCRIBED';
      return {
        customerId: owner.id,
        profileImg: owner.img,
        customerNickname: owner.nickname,
        introduce: owner.introduce,
        subscriberCount: subscribers?.n ?? 0,
        videoCount: videos?.n ?? 0,
        isSubscribed,
        shortsList: list.slice(0, size),
        hasNext: list.length > size,
        mediaBaseUrl,
      };
    },

    /**
     * The owner (from the token) edits nickname, introduction and optionally the photo. The new photo is
     * stored before the row points at it, and the old one is removed only after the row no longer does,
     * so a failure at any step leaves a working profile (at worst an unreferenced new file is cleaned up).
     */
    async edit(owner: number, fields: ProfileEditFields, imageFile: string | null): Promise<ProfileEditResult> {
      let newKey: string | null = null;
      if (imageFile) {
        const work = await mkdtemp(join(tmpdir(), 'ohgood-avatar-'));
        try {
          const output = join(work, 'avatar.webp');
          await renderAvatar(imageFile, output);
          newKey = avatarKey();
          await storage.putFile(newKey, output, 'image/webp');
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      }
      let oldKey: string | null = null;
      let saved: ProfileEditResult;
      try {
        saved = await withTx(db, async (tx) => {
          const [current] = await tx
            .select({ img: customers.profileImg })
            .from(customers)
            .where(eq(customers.id, owner))
            .for('update');
          if (!current) throw customerNotFound();
          oldKey = newKey ? current.img : null;
          const [row] = await tx
            .update(customers)
            .set({
              nickname: fields.nickname,
              introduce: fields.introduce,
              ...(newKey ? { profileImg: newKey } : {}),
            })
            .where(eq(customers.id, owner))
            .returning({
              customerId: customers.id,
              customerNickname: customers.nickname,
              introduce: customers.introduce,
              profileImg: customers.profileImg,
            });
          if (!row) throw customerNotFound();
          return row;
        });
      } catch (error) {
        if (newKey) await storage.delete(newKey).catch(() => undefined);
        // Another creator's name, whatever its letter case or width (the unique index of migration 0030).
        if (isUniqueViolation(error, 'customers_nickname_key'))
          throw conflict('NICKNAME_TAKEN', DISCOVERY_MSG.nicknameTaken);
        throw error;
      }
      // The name and picture are in this creator's items and comments everywhere (others hear the database).
      changes.everythingChanged();
      // Only photos this feature stored are ours to delete (never a seeded or shared file).
      const previous = oldKey as string | null;
      if (previous?.startsWith('avatars/') && previous !== newKey) {
        await storage.delete(previous).catch((error: unknown) => {
          log.warn({ err: error, key: previous }, 'old avatar not removed');
        });
      }
      return saved;
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
