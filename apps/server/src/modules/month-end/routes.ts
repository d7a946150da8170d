import { kstDate } from '@ohgood/contract/kst';
import { monthEndEndpoints as api, type ExportKind, rangeExportEndpoints } from '@ohgood/contract/month-end';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { requireStaff } from '../../http/auth-guard';
import { registerEndpoint } from '../../http/endpoint';
import type { Clock } from '../../lib/clock';
import { writeAudit } from '../ops/audit';
import { actorOf } from '../ops/staff-principal';
import { rangeSource } from './export-sources';
import { monthEndReport, readMonthEnd } from './month-report';
import { MONTH_END_HEADER, monthEndRows } from './month-report-csv';
import { type CsvFile, csvStreamer, cursorBatches, type ExportOutcome } from './stream-csv';

/** The audit action of an export by how it ended (docs/rules/operations.md#O15). */
export const EXPORT_ACTIONS: Record<ExportOutcome, string> = {
  completed: 'export.download',
  aborted: 'export.aborted',
  failed: 'export.failed',
};

/** The month-end report and the CSV exports (console, RISK/ADMIN or whoever reads payments). */
export function monthEndRoutes(db: Db, clock: Clock): FastifyPluginAsync {
  return async (app) => {
    const streamCsv = csvStreamer(db);

    /**
     * Streams `file` and, once it ended, writes its audit row: who, which export, the range, the rows written
     * and how it ended. An aborted download is recorded too (`export.aborted`, with the rows written to the
     * socket before the client went: at most what left), so no partial copy goes unrecorded.
     */
    const download = (
      request: FastifyRequest,
      reply: FastifyReply,
      kind: ExportKind,
      file: CsvFile,
      range: Record<string, string>,
    ) => {
      const actor = actorOf(requireStaff(request));
      return streamCsv(reply, file, async (rows, outcome) => {
        try {
          await writeAudit(db, actor, clock.now(), {
            action: EXPORT_ACTIONS[outcome],
            targetType: 'export',
            targetId: kind,
            reason: '파일 내려받기',
            after: { ...range, rows },
          });
        } catch (error) {
          // The file is gone already; the log keeps what the audit could not.
          request.log.error({ err: error, kind, range, rows, outcome }, 'export audit row not written');
        }
      });
    };

    const monthOf = (query: { month: string; asOf?: string }) => ({
      month: query.month,
      asOf: query.asOf ?? kstDate(clock.now()),
    });

    registerEndpoint(app, api.monthEndReport, async (request) => {
      const { month, asOf } = monthOf(request.query);
      return monthEndReport(db, month, asOf);
    });

    registerEndpoint(app, api.exportMonthEnd, async (request, reply) => {
      const { month, asOf } = monthOf(request.query);
      const file: CsvFile = {
        name: `month-end_${month}_${asOf}`,
        header: MONTH_END_HEADER,
        async *batches(tx) {
          yield monthEndRows(await readMonthEnd(tx, month, asOf));
        },
      };
      await download(request, reply, 'month-end', file, { month, asOf });
      return reply as never;
    });

    for (const [kind, endpoint] of Object.entries(rangeExportEndpoints)) {
      registerEndpoint(app, endpoint, async (request, reply) => {
        const source = rangeSource(kind as keyof typeof rangeExportEndpoints, request.query);
        const file: CsvFile = { ...source, batches: cursorBatches(source.query, source.cells) };
        await download(request, reply, kind as ExportKind, file, { from: request.query.from, to: request.query.to });
        return reply as never;
      });
    }
  };
}
