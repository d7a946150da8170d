import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadErrorText } from '../load-error';
import { FailureBoundary } from './failure-boundary';

// React reports every caught error on the console; these failures are the point of the tests.
afterEach(() => vi.restoreAllMocks());
const quietly = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

describe('FailureBoundary', () => {
  it('shows a part whose code did not arrive as a Korean failure with a retry, and keeps its neighbours', async () => {
    quietly();
    const onRetry = vi.fn();
    const Part = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/part.js')),
    );
    render(
      <>
        <h1>납부하기</h1>
        <FailureBoundary onRetry={onRetry}>
          <Suspense fallback={<p>불러오는 중</p>}>
            <Part />
          </Suspense>
        </FailureBoundary>
      </>,
    );
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('오류가 발생했습니다: 화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.');
    expect(failed).not.toHaveTextContent('dynamically');
    expect(screen.getByRole('heading', { name: '납부하기' })).toBeInTheDocument();
    await userEvent.click(within(failed).getByRole('button', { name: '다시 시도' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows a part that threw while rendering in its own words, never the code’s English', () => {
    quietly();
    const Broken = () => {
      throw new Error("Cannot read properties of undefined (reading 'map')");
    };
    render(
      <FailureBoundary onRetry={() => undefined}>
        <Broken />
      </FailureBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('오류가 발생했습니다: 화면을 표시하지 못했습니다.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Cannot read');
  });

  it('shows the given fallback instead, for a part that may quietly be absent', () => {
    quietly();
    const Broken = () => {
      throw new TypeError('Importing a module script failed.');
    };
    render(
      <FailureBoundary fallback={<span data-testid="place" />}>
        <Broken />
      </FailureBoundary>,
    );
    expect(screen.getByTestId('place')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reads each browser’s words for a module that did not load, in Korean', () => {
    const notLoaded = '오류가 발생했습니다: 화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.';
    expect(loadErrorText(new TypeError('Failed to fetch dynamically imported module: https://a/b.js'))).toBe(notLoaded);
    expect(loadErrorText(new TypeError('error loading dynamically imported module: https://a/b.js'))).toBe(notLoaded);
    expect(loadErrorText(new TypeError('Importing a module script failed.'))).toBe(notLoaded);
    expect(loadErrorText(new Error('Unable to preload CSS for /assets/a.css'))).toBe(notLoaded);
  });
});
