import { type ReportRequest, safetyEndpoints } from '@ohgood/contract/safety';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';

/**
 * A report of a short or a comment (docs/rules/shorts.md#S10): nothing on screen changes until it is reviewed.
 * Apart from the feed's calls, so it loads with the report sheet, not with the feed.
 */
export function useReport() {
  return useMutation({ mutationFn: (body: ReportRequest) => callEndpoint(safetyEndpoints.report, { body }) });
}
