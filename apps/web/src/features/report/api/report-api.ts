import { reportEndpoints as api } from '@ohgood/contract/report';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint, LONG_TIMEOUT } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

/** The report's keys; payments, repayments and extensions refresh the whole report. */
export const reportKeys = {
  all: dataKeys.report,
  score: [...dataKeys.report, 'score'] as const,
  analysis: (windowMonths: number) => [...dataKeys.report, 'analysis', windowMonths] as const,
  advice: [...dataKeys.report, 'advice'] as const,
};

// The report's calls take the 30 s timeout (docs/rules/api.md#A5).
export const fetchScore = async () => (await callEndpoint(api.score, { timeout: LONG_TIMEOUT })).data;
export const fetchAnalysis = async (windowMonths: number) =>
  (await callEndpoint(api.analyze, { body: { windowMonths }, timeout: LONG_TIMEOUT })).data;
export const fetchAdvice = async () => (await callEndpoint(api.advice, { timeout: LONG_TIMEOUT })).data;

// Each card retries by hand ('다시 시도'): a failing call shows its error at once instead of retrying silently.
/** The score: the report's first screen, which the page also starts before it renders (dashboard-route). */
export const scoreQuery = queryOptions({ queryKey: reportKeys.score, queryFn: fetchScore, retry: false });

export function useScore() {
  return useQuery(scoreQuery);
}

export function useAnalysis(windowMonths: number) {
  return useQuery({
    queryKey: reportKeys.analysis(windowMonths),
    queryFn: () => fetchAnalysis(windowMonths),
    retry: false,
    // Switching the window keeps the old bars on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useAdvice() {
  return useQuery({ queryKey: reportKeys.advice, queryFn: fetchAdvice, retry: false });
}
