import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToast, dismissToast, showToast, subscribeToast, TOAST_MS } from './toast';

afterEach(() => {
  dismissToast();
  vi.useRealTimers();
});

describe('toast', () => {
  it('shows one message and dismisses it by itself', () => {
    vi.useFakeTimers();
    showToast('로그아웃 되었습니다.');
    expect(currentToast()?.message).toBe('로그아웃 되었습니다.');
    vi.advanceTimersByTime(TOAST_MS);
    expect(currentToast()).toBeNull();
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
