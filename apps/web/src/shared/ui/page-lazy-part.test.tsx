import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyPart } from './page';

/** A screen with a lazily loaded part beside a part that is always there. */
function Screen({ Part }: { Part: ReturnType<typeof lazyPart<{ label: string }>> }) {
  return (
    <div>
      <nav aria-label="메뉴">메뉴</nav>
      <Suspense fallback={<p>불러오는 중</p>}>
        <Part label="정산" />
      </Suspense>
    </div>
  );
}

describe('lazyPart', () => {
  it('shows the part with its props once its code has come', async () => {
    const Part = lazyPart(async () => ({ label }: { label: string }) => <h2>{label}</h2>);
    render(<Screen Part={Part} />);
    expect(await screen.findByRole('heading', { name: '정산' })).toBeInTheDocument();
  });

  it("shows a failed load in the part's place in Korean with a retry, and keeps the rest of the screen", async () => {
    const Part = lazyPart<{ label: string }>(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/settlements.js')),
    );
    render(<Screen Part={Part} />);
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.');
    expect(screen.getByRole('button', { name: '다시 시도' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: '메뉴' })).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('dynamically imported module');
  });
});
