import type { StatusResult } from '@ohgood/contract/shorts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shorts } from '../../db/schema';
import { shortNotFound } from './playable-short';

/** An uploader's view of their own short's processing (PROCESSING, READY or FAILED with its reason). */
export function createUploadStatusService(db: Db) {
  return {
    async status(id: number, owner: number): Promise<StatusResult> {
      const [row] = await db
        .select({ id: shorts.id, status: shorts.status, failureReason: shorts.failureReason })
        .from(shorts)
        .where(and(eq(shorts.id, id), eq(shorts.customerId, owner)));
      if (!row) throw shortNotFound();
      return { shortsId: row.id, status: row.status, failureReason: row.failureReason };
    },
  };
}

export type UploadStatusService = ReturnType<typeof createUploadStatusService>;
