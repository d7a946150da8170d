import type { AdviceReport, ScoreReport, SpendingAnalysis } from '@ohgood/contract/report';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiLong } from '../../../shared/api-client';

export const reportKeys = {
  all: ['report'] as const,
  score: ['report', 'score'] as const,
  analysis: (windowMonths: number) => ['report', 'analysis', windowMonths] as const,
  advice: ['report', 'advice'] as const,
};

// The report's calls go through the 30 s client (spec §7: two clients; the slow one serves the report).
export const fetchScore = () => apiLong.post<ScoreReport>('/api/dash/saymyname');
export const fetchAnalysis = (windowMonths: number) =>
  apiLong.post<SpendingAnalysis>('/api/dash/analyze', { windowMonths });
export const fetchAdvice = () => apiLong.post<AdviceReport>('/api/dash/advice');

// Each card retries by hand ('다시 시도'): a failing call shows its error at once instead of retrying silently.
export function useScore() {
  return useQuery({ queryKey: reportKeys.score, queryFn: fetchScore, retry: false });
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
