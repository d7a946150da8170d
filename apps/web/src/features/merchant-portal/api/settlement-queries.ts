import { merchantSettlementEndpoints as settlementApi } from '@ohgood/contract/settlements';
import { useQuery } from '@tanstack/react-query';
import { saveCsv } from '../../../shared/save-csv';
import { callPortal, merchantApiSession as session } from './portal-api';
import { portalKeys } from './queries';

/* The settlements screen's reads, in its own chunk with the settlement contract it needs. */

/** The shop's settlements, newest day first (the latest 50). */
export const useSettlements = () =>
  useQuery({
    queryKey: portalKeys.settlements,
    queryFn: ({ signal }) => callPortal(settlementApi.list, { ...session, query: {}, signal }),
  });

/** One settlement with its lines, read when it is opened. */
export const useSettlement = (settlementId: number | null) =>
  useQuery({
    queryKey: portalKeys.settlement(settlementId ?? 0),
    enabled: settlementId !== null,
    queryFn: ({ signal }) =>
      callPortal(settlementApi.get, { ...session, params: { settlementId: settlementId ?? 0 }, signal }),
  });

/** Downloads one settlement's CSV with the session and hands it to the browser as `settlement-<date>.csv`. */
export async function downloadSettlementCsv(settlementId: number, date: string): Promise<void> {
  saveCsv(`settlement-${date}.csv`, await callPortal(settlementApi.csv, { ...session, params: { settlementId } }));
}
