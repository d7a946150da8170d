import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shorts } from '../../db/schema';
import type { Clock } from '../../lib/clock';

/** How long a transcode lease holds without renewal, how often its owner renews it, how often others look. */
export interface LeaseTimes {
  leaseMs: number;
  heartbeatMs: number;
  takeoverMs: number;
}

/**
 * A 30 s lease renewed every 10 s: an owner must miss two renewals in a row before anyone else may take its
 * short, and a short whose instance died waits at most lease + one look (≈ 40 s) for another instance.
 */
export const TRANSCODE_LEASE: LeaseTimes = { leaseMs: 30_000, heartbeatMs: 10_000, takeoverMs: 10_000 };

export type ClaimedShort = typeof shorts.$inferSelect;

/**
 * The database side of the transcode lease (docs/rules/shorts.md#S17): who transcodes a PROCESSING short and
 * until when. Every change is one conditional UPDATE, so of two instances claiming at once exactly one wins.
 * Instants come from the app clock.
 */
export class TranscodeLeases {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /** The lease's end if taken now (a new upload starts out leased to the instance that accepted it). */
  until(): Date {
    return new Date(this.clock.now().getTime() + this.leaseMs);
  }

  /** Takes (or renews) the lease of a PROCESSING short that is free, run out, or already this owner's. */
  async claim(id: number): Promise<ClaimedShort | null> {
    const now = this.clock.now();
    const [row] = await this.db
      .update(shorts)
      .set({ transcodeOwner: this.owner, transcodeLeaseUntil: this.until() })
      .where(
        and(
          eq(shorts.id, id),
          eq(shorts.status, 'PROCESSING'),
          or(
            isNull(shorts.transcodeLeaseUntil),
            lte(shorts.transcodeLeaseUntil, now),
            eq(shorts.transcodeOwner, this.owner),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Extends this owner's lease; false when the lease is no longer this owner's (taken over, or finished). */
  async renew(id: number): Promise<boolean> {
    const rows = await this.db
      .update(shorts)
      .set({ transcodeLeaseUntil: this.until() })
      .where(and(eq(shorts.id, id), eq(shorts.status, 'PROCESSING'), eq(shorts.transcodeOwner, this.owner)))
      .returning({ id: shorts.id });
    return rows.length > 0;
  }

  /** PROCESSING shorts nobody holds a live lease on: stranded by a stopped or dead instance. */
  async claimable(): Promise<number[]> {
    const rows = await this.db
      .select({ id: shorts.id })
      .from(shorts)
      .where(
        and(
          eq(shorts.status, 'PROCESSING'),
          or(isNull(shorts.transcodeLeaseUntil), lte(shorts.transcodeLeaseUntil, this.clock.now())),
        ),
      )
      .orderBy(shorts.id);
    return rows.map((row) => row.id);
  }

  /** A stopping instance hands its unfinished shorts back at once instead of making others wait out the lease. */
  async releaseAll(): Promise<void> {
    await this.db
      .update(shorts)
      .set({ transcodeOwner: null, transcodeLeaseUntil: null })
      .where(and(eq(shorts.status, 'PROCESSING'), eq(shorts.transcodeOwner, this.owner)));
  }
}

/** What finishing a short sets besides its status: nobody holds it any more. */
export const leaseEnded = { transcodeOwner: null, transcodeLeaseUntil: null } as const;
