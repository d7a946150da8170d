import { reportEndpoints as api } from '@ohgood/contract/report';
import { ANALYSIS_WINDOW } from '@ohgood/contract/report-rules';
import { keepPreviousData, queryOptions, usePrefetchQuery, useQuery } from '@tanstack/react-query';
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

// Each card retries by hand ('다시 시도'): a failing call shows its error at once instead of retrying
// silently, also when the card mounts after its call has failed (the lower cards' calls start first).
const byHandOnly = { retry: false, retryOnMount: false } as const;

const scoreQuery = queryOptions({ queryKey: reportKeys.score, queryFn: fetchScore, ...byHandOnly });
const analysisQuery = (windowMonths: number) =>
  queryOptions({
    queryKey: reportKeys.analysis(windowMonths),
    queryFn: () => fetchAnalysis(windowMonths),
    ...byHandOnly,
  });
const adviceQuery = queryOptions({ queryKey: reportKeys.advice, queryFn: fetchAdvice, ...byHandOnly });

export function useScore() {
  return useQuery(scoreQuery);
}

export function useAnalysis(windowMonths: number) {
  // Switching the window keeps the old bars on screen until the new ones arrive.
  return useQuery({ ...analysisQuery(windowMonths), placeholderData: keepPreviousData });
}

export function useAdvice() {
  return useQuery(adviceQuery);
}

/**
 * The cards below the fold mount in an idle moment (BelowFold); their calls start with the page all the
 * same, alongside the score's, so their data is not later than before.
 */
export function usePrefetchLowerCards() {
  usePrefetchQuery(analysisQuery(ANALYSIS_WINDOW.default));
  usePrefetchQuery(adviceQuery);
}
