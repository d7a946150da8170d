import type { ServerResponse } from 'node:http';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import { rowsOf, type Tx } from '../../db/tx';
import { tooMany } from '../../lib/errors';
import { BOM, type CsvValue, csvLine } from './csv';

/*
 * One CSV download streamed from the database (docs/rules/operations.md#O15, ADR 0226): a server-side cursor in a
 * read-only snapshot is fetched a batch at a time, each batch written to the socket and the next fetched only when
 * the socket has taken it, so neither the table nor the file is ever held in memory, and a slow client slows the
 * fetching instead of filling the heap. Headers go out only once the first batch is in hand: a database that
 * is down answers the usual JSON error, not a broken file. After that a failure can only cut the file short.
 */

/** Rows per FETCH: large enough that round trips do not dominate, small enough to stay a few hundred KB. */
export const FETCH_ROWS = 1000;
/**
 * Downloads one instance streams at once: each holds a pooled connection for as long as the client reads,
 * and the pool is the service's. One more is refused (429) until one ends.
 */
export const CONCURRENT_EXPORTS = 2;

export interface CsvFile {
  /** The download's file name, without `.csv`. */
  name: string;
  header: readonly string[];
  /** The records, batch by batch, read inside the download's transaction. */
  batches(tx: Tx): AsyncIterable<CsvValue[][]>;
}

/** How a download ended: every row taken by the client, the client gone first, or the database failing. */
export type ExportOutcome = 'completed' | 'aborted' | 'failed';

/** The rows of `query` through a cursor, `FETCH_ROWS` at a time, each row turned into cells. */
export function cursorBatches(
  query: SQL,
  cells: (row: Record<string, unknown>) => CsvValue[],
): (tx: Tx) => AsyncIterable<CsvValue[][]> {
  return async function* (tx) {
    await tx.execute(sql`declare export_rows no scroll cursor for ${query}`);
    for (;;) {
      const rows = await rowsOf<Record<string, unknown>>(tx, sql.raw(`fetch forward ${FETCH_ROWS} from export_rows`));
      if (rows.length === 0) return;
      yield rows.map(cells);
    }
  };
}

class ClientGone extends Error {}

/** Writes `text`, waiting until the socket drained when its buffer is full; throws once the client is gone. */
async function write(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed) throw new ClientGone();
  if (res.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const drained = () => {
      res.off('close', closed);
      resolve();
    };
    const closed = () => {
      res.off('drain', drained);
      reject(new ClientGone());
    };
    res.once('drain', drained);
    res.once('close', closed);
  });
}

/** Resolves true once every byte was handed to the client's socket, false if it closed first. */
function finished(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.writableFinished) return resolve(true);
    res.once('finish', () => resolve(true));
    res.once('close', () => resolve(res.writableFinished));
  });
}

/** `filename*` per RFC 6266/5987, with an ASCII `filename` for clients that read only that. */
function disposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}.csv"; filename*=UTF-8''${encodeURIComponent(name)}.csv`;
}

/**
 * Streams `file` as the reply and calls `done` with the rows written and how it ended, once it has ended:
 * the caller records it (the audit row of an export). Limited to `CONCURRENT_EXPORTS` at once per instance.
 */
export function csvStreamer(db: Db) {
  let open = 0;
  return async function streamCsv(
    reply: FastifyReply,
    file: CsvFile,
    done: (rows: number, outcome: ExportOutcome) => Promise<void>,
  ): Promise<void> {
    if (open >= CONCURRENT_EXPORTS) {
      throw tooMany('RATE_LIMITED', '다른 내려받기가 진행 중이에요. 끝난 뒤 다시 시도해 주세요.');
    }
    open += 1;
    const res = reply.raw;
    let rows = 0;
    let outcome: ExportOutcome = 'completed';
    try {
      await db.transaction(
        async (tx) => {
          const batches = file.batches(tx)[Symbol.asyncIterator]();
          let next = await batches.next();
          reply.hijack();
          res.writeHead(200, {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': disposition(file.name),
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          });
          await write(res, BOM + csvLine(file.header));
          while (!next.done) {
            await write(res, next.value.map(csvLine).join(''));
            rows += next.value.length;
            next = await batches.next();
          }
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      res.end();
      if (!(await finished(res))) outcome = 'aborted';
    } catch (error) {
      // Before the headers went out the error answers as any other; after, only a cut connection can tell it.
      if (!reply.sent) throw error;
      outcome = error instanceof ClientGone ? 'aborted' : 'failed';
      res.destroy();
    } finally {
      open -= 1;
    }
    await done(rows, outcome);
  };
}
