import { monthEndEndpoints as api } from '@ohgood/contract/month-end';
import { useQuery } from '@tanstack/react-query';
import { LONG_TIMEOUT } from '../../../shared/caller';
import { saveCsv } from '../../../shared/save-csv';
import { opsKeys } from './keys';
import { callOps } from './staff-api';

/* The month-end report's read and the CSV downloads (docs/rules/operations.md#O14–O15). */

/** The report of `month` as of `asOf` (the server's today when absent). */
export const useMonthEndReport = (month: string, asOf?: string) =>
  useQuery({
    queryKey: opsKeys.monthEnd(month, asOf ?? 'today'),
    queryFn: ({ signal }) => callOps(api.monthEndReport, { query: { month, asOf }, signal, timeout: LONG_TIMEOUT }),
  });

/** Runs one export's call (typed where it is made) and saves what it answered as `name`. */
export async function downloadCsv(name: string, call: () => Promise<string>): Promise<void> {
  saveCsv(name, await call());
}
