import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToastLog, toastLog } from '../../test/toast-log';
import { lazyDialog } from './lazy-dialog';

beforeEach(() => resetToastLog());

describe('lazyDialog', () => {
  it('opens the dialog once its code has come', async () => {
    const Dialog = lazyDialog(
      async () => ({ default: ({ title }: { title: string }) => <div role="dialog" aria-label={title} /> }),
      () => undefined,
    );
    render(
      <Suspense fallback={null}>
        <Dialog title="출석체크 룰렛" />
      </Suspense>,
    );
    expect(await screen.findByRole('dialog', { name: '출석체크 룰렛' })).toBeInTheDocument();
  });

  it('says in a toast that its code did not come and gives up with the props it was opened with', async () => {
    const giveUp = vi.fn();
    const Dialog = lazyDialog<{ title: string }>(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/d.js')),
      giveUp,
    );
    render(
      <Suspense fallback={null}>
        <Dialog title="출석체크 룰렛" />
      </Suspense>,
    );
    await vi.waitFor(() => expect(giveUp).toHaveBeenCalledWith({ title: '출석체크 룰렛' }));
    expect(toastLog).toEqual(['화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
