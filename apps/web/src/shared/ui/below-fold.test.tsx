import { render, screen } from '@testing-library/react';
import { lazy, type ReactElement, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idleMomentsByHand } from '../../test/idle-moments';
import { BelowFold } from './below-fold';

afterEach(() => vi.unstubAllGlobals());

describe('BelowFold', () => {
  it('holds the part’s place until an idle moment and, for a lazy part, until its code has come', async () => {
    const idle = idleMomentsByHand();
    let arrive: (module: { default: () => ReactElement }) => void = () => {};
    const Part = lazy(() => new Promise<{ default: () => ReactElement }>((resolve) => (arrive = resolve)));
    try {
      // As in the app, a boundary above the page (the router's) would show the page's loading state instead.
      const { container } = render(
        <Suspense fallback={<p>페이지를 불러오는 중...</p>}>
          <h1>납부하기</h1>
          <BelowFold height={641} className="list">
            <Part />
          </BelowFold>
        </Suspense>,
      );
      const place = () => container.querySelector('.list');
      expect(place()).toHaveStyle({ minHeight: '641px' });
      expect(place()).toHaveAttribute('aria-hidden', 'true');
      // The idle moment comes before the code: the same place stays, once.
      await idle.next();
      expect(container.querySelectorAll('.list')).toHaveLength(1);
      expect(place()).toHaveStyle({ minHeight: '641px' });
      expect(screen.getByRole('heading', { name: '납부하기' })).toBeVisible();
      expect(screen.queryByText('페이지를 불러오는 중...')).toBeNull();
      arrive({ default: () => <h2>미납 내역</h2> });
      expect(await screen.findByRole('heading', { name: '미납 내역' })).toBeInTheDocument();
      expect(place()).toBeNull();
    } finally {
      await idle.release();
    }
  });
});
