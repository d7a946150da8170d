import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetToastLog, toastLog } from '../../test/toast-log';
import { onDemand } from './on-demand';

beforeEach(() => resetToastLog());

/** A feed with a sheet opened on a tap, as the shorts feed holds its comment panel. */
function Feed({ Sheet }: { Sheet: ReturnType<typeof onDemand<{ onClose(): void }>> }) {
  const [open, setOpen] = useState(true);
  return (
    <div>
      <p>피드 영상</p>
      {open ? <Sheet onClose={() => setOpen(false)} /> : <p>시트 닫힘</p>}
    </div>
  );
}

describe('onDemand', () => {
  it('shows the sheet once its code has come', async () => {
    const Sheet = onDemand(async () => ({ default: () => <div role="dialog" aria-label="댓글" /> }));
    render(<Feed Sheet={Sheet} />);
    expect(await screen.findByRole('dialog', { name: '댓글' })).toBeInTheDocument();
    expect(toastLog).toEqual([]);
  });

  it('says in a toast that its code did not come and closes, leaving the screen behind it', async () => {
    const Sheet = onDemand<{ onClose(): void }>(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/comment-panel.js')),
    );
    await act(async () => {
      render(<Feed Sheet={Sheet} />);
    });
    expect(await screen.findByText('시트 닫힘')).toBeInTheDocument();
    expect(screen.getByText('피드 영상')).toBeInTheDocument();
    expect(toastLog).toEqual(['화면을 불러오지 못했습니다. 네트워크 연결을 확인해주세요.']);
    expect(document.body.textContent).not.toContain('dynamically imported module');
  });
});
