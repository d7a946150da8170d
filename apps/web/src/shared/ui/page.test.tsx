import { fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { ApiError } from '../api-client';
import { ErrorText } from './page';

it('shows one calm line with a retry while the server is briefly unavailable, and the reason otherwise', () => {
  const onRetry = vi.fn();
  const outage = new ApiError(503, 'SERVICE_UNAVAILABLE', '잠시 후 다시 시도해주세요.');
  const { unmount } = render(<ErrorText error={outage} onRetry={onRetry} />);
  expect(screen.getByRole('alert')).toHaveTextContent(/^잠시 후 다시 시도해주세요\.다시 시도$/);
  fireEvent.click(screen.getByRole('button', { name: '다시 시도' }));
  expect(onRetry).toHaveBeenCalledOnce();
  unmount();

  render(<ErrorText error={new ApiError(404, 'NOT_FOUND', '요청한 정보를 찾을 수 없습니다.')} onRetry={onRetry} />);
  expect(screen.getByRole('alert')).toHaveTextContent('오류가 발생했습니다: 요청한 정보를 찾을 수 없습니다.');
});

it('loads again by itself after an outage, at the server’s Retry-After, and not after other failures', () => {
  vi.useFakeTimers();
  try {
    const onRetry = vi.fn();
    const outage = new ApiError(503, 'SERVICE_UNAVAILABLE', '잠시 후 다시 시도해주세요.');
    outage.retryAfterMs = 5_000;
    const { rerender, unmount } = render(<ErrorText error={outage} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('잠시 후 다시 시도해주세요.');
    vi.advanceTimersByTime(4_999);
    expect(onRetry).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onRetry).toHaveBeenCalledOnce();
    // Still away: the next 503 arms the next reload.
    const again = new ApiError(503, 'SERVICE_UNAVAILABLE', '잠시 후 다시 시도해주세요.');
    again.retryAfterMs = 5_000;
    rerender(<ErrorText error={again} onRetry={onRetry} />);
    vi.advanceTimersByTime(5_000);
    expect(onRetry).toHaveBeenCalledTimes(2);
    unmount();

    const notFound = vi.fn();
    render(<ErrorText error={new ApiError(404, 'NOT_FOUND', '요청한 정보를 찾을 수 없습니다.')} onRetry={notFound} />);
    vi.advanceTimersByTime(60_000);
    expect(notFound).not.toHaveBeenCalled();
  } finally {
    vi.useRealTimers();
  }
});
