import { type CollectionsDeps, createCollectionsActions } from './collections-actions';
import { createCollectionsReads } from './collections-reads';

/**
 * Collections (docs/rules/operations.md#O18–O21): what risk looks at about customers who owe
 * (`collections-reads.ts`) and what it does about them (`collections-actions.ts`), with the SQL of both in
 * `collections-repository.ts`.
 */
export function createCollectionsService(deps: CollectionsDeps) {
  return {
    ...createCollectionsReads(deps.db, deps.clock, deps.previewKey),
    ...createCollectionsActions(deps),
  };
}
export type CollectionsService = ReturnType<typeof createCollectionsService>;
