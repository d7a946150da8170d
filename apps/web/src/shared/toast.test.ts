import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToast, dismissToast, showToast, subscribeToast, TOAST_MS } from './toast';

afterEach(() => {
  dismissToast();
  vi.useRealTimers();
});

describe('toast', () => {
  it('shows one message and dismisses it by itself', () => {
    vi.useFakeTimers();
    const stop = subscribeToast(() => undefined);
    showToast('로그아웃 되었습니다.');
    expect(currentToast()?.message).toBe('로그아웃 되었습니다.');
    vi.advanceTimersByTime(TOAST_MS);
    expect(currentToast()).toBeNull();
    stop();
  });

  it('a message raised before anything shows it stays its full time from when it is shown', () => {
    vi.useFakeTimers();
    showToast('로그인이 만료되었어요. 다시 로그인해 주세요.');
    // A slow phone still hydrating: nothing on screen yet.
    vi.advanceTimersByTime(TOAST_MS * 2);
    expect(currentToast()?.message).toBe('로그인이 만료되었어요. 다시 로그인해 주세요.');
    const stop = subscribeToast(() => undefined);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(currentToast()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
    stop();
  });

  it('never stacks the same message twice: it keeps one toast and restarts its timer', () => {
    vi.useFakeTimers();
    const changes = vi.fn();
    const stop = subscribeToast(changes);
    showToast('로그인 후 이용 가능합니다.');
    const first = currentToast();
    vi.advanceTimersByTime(TOAST_MS - 100);
    showToast('로그인 후 이용 가능합니다.');
    expect(currentToast()).toBe(first);
    expect(changes).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TOAST_MS - 100);
    expect(currentToast()).toBe(first);
    vi.advanceTimersByTime(100);
    expect(currentToast()).toBeNull();
    stop();
  });

  it('a new message replaces the shown one', () => {
    showToast('회원가입 성공');
    showToast('로그인 성공!');
    expect(currentToast()?.message).toBe('로그인 성공!');
  });
});
