import { monthEndEndpoints as api } from '@ohgood/contract/month-end';
import { useQuery } from '@tanstack/react-query';
import { LONG_TIMEOUT } from '../../../shared/caller';
import { opsKeys } from './keys';
import { callOps } from './staff-api';

/* The month-end report's read and the CSV downloads (docs/rules/operations.md#O14–O15). */

/** The report of `month` as of `asOf` (the server's today when absent). */
export const useMonthEndReport = (month: string, asOf?: string) =>
  useQuery({
    queryKey: opsKeys.monthEnd(month, asOf ?? 'today'),
    queryFn: ({ signal }) => callOps(api.monthEndReport, { query: { month, asOf }, signal, timeout: LONG_TIMEOUT }),
  });

/** The byte-order mark Excel needs to read UTF-8; the caller's text decoding drops the server's. */
const BOM = '\uFEFF';

/** Hands `text` to the browser as a file download named `name`. */
export function saveCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([BOM, text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Runs one export's call (typed where it is made) and saves what it answered as `name`. */
export async function downloadCsv(name: string, call: () => Promise<string>): Promise<void> {
  saveCsv(name, await call());
}
