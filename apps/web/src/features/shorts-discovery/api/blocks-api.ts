import { safetyEndpoints } from '@ohgood/contract/safety';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { invalidateAfter } from '../../../shared/query-keys';
import { discoveryKeys } from './discovery-api';

/*
 * Blocks of creators (docs/rules/shorts.md#S13), apart from the discovery calls: only the channel and the
 * shorts my page load them.
 */

/** The creators I blocked, most recent first. */
export function useBlockedCreators(enabled = true) {
  return useQuery({
    queryKey: discoveryKeys.blocks,
    queryFn: () => callEndpoint(safetyEndpoints.blocks).then((body) => body.data),
    enabled,
  });
}

/**
 * Whether I blocked this creator (`undefined` while my blocks load, or for my own channel, `customerId`
 * null): a blocked creator's channel shows neither their videos nor a subscribe button.
 */
export function useIsBlocked(customerId: number | null): boolean | undefined {
  const blocks = useBlockedCreators(customerId !== null);
  if (customerId === null) return undefined;
  if (!blocks.data) return blocks.isError ? false : undefined;
  return blocks.data.some((creator) => creator.customerId === customerId);
}

/**
 * Blocks or unblocks a creator: their shorts and comments leave (or come back to) every list I see, so
 * those are read again.
 */
export function useBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ customerId, block }: { customerId: number; block: boolean }) =>
      callEndpoint(block ? safetyEndpoints.block : safetyEndpoints.unblock, { params: { customerId } }),
    onSuccess: () => invalidateAfter(client, 'block'),
  });
}
