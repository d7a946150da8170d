import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS, ShareDialog } from './share-dialog';

describe('ShareDialog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the feed link, copies it, and keeps the copied state for 2 s', async () => {
    const onClose = vi.fn();
    render(<ShareDialog shortsId={42} onClose={onClose} />);
    const link = `${window.location.origin}/shorts/feeds?shortsId=42`;
    expect(screen.getByLabelText('공유 링크')).toHaveValue(link);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '링크 복사' }));
    });
    expect(screen.getByRole('button', { name: '복사됨' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);

    act(() => vi.advanceTimersByTime(COPIED_MS - 1));
    expect(screen.getByRole('button', { name: '복사됨' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: '링크 복사' })).toBeInTheDocument();

    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});
