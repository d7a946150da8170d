import type { SuspensionReason } from '@ohgood/contract/bill-rules';
import type { Hobby, Mood } from '@ohgood/contract/chat-rules';
import type { CatalogPort, CatalogProduct, RecommendOutcome } from '../modules/chat/engine';

/** An in-memory catalogue with the service's selection rules, for engine tests (the service is tested on
 * the real database separately). */
export function memoryCatalog(
  items: Array<{ id: number; hobby: Hobby; moods: Mood[]; price: number }>,
  availableLimit = 1_000_000,
  suspension: SuspensionReason | null = null,
): CatalogPort & { calls: number } {
  const port = {
    calls: 0,
    suspension: async () => suspension,
    async recommend({ mood, hobby, excludeIds }: { mood: Mood; hobby: Hobby; excludeIds: readonly number[] }) {
      port.calls += 1;
      const left = items.filter((p) => p.hobby === hobby && !excludeIds.includes(p.id));
      if (left.length === 0) return { kind: 'exhausted' } satisfies RecommendOutcome;
      const fitting = left.filter((p) => p.price <= availableLimit);
      if (fitting.length === 0) {
        return { kind: 'none_within_limit', availableLimit, limitByStaff: null } satisfies RecommendOutcome;
      }
      const ranked = [...fitting].sort((a, b) => Number(b.moods.includes(mood)) - Number(a.moods.includes(mood)));
      const products: CatalogProduct[] = ranked.slice(0, 3).map((p) => ({
        id: p.id,
        name: `상품 ${p.id}`,
        price: p.price,
        image: `chat-products/${p.id}.svg`,
        url: `https://example.com/${p.id}`,
        category: p.hobby,
      }));
      return { kind: 'ok', products } satisfies RecommendOutcome;
    },
  };
  return port;
}
