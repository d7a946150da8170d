import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import ReportSheet from './report-sheet';

let sent: unknown[];
let answer: { status: number; body: unknown };

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  setToken('token');
  resetToastLog();
  sent = [];
  answer = {
    status: 200,
    body: { success: true, message: '신고가 접수되었습니다. 검토 후 조치할게요.', data: { reportId: 1 } },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url !== '/api/shorts/reports' || init.method !== 'POST')
        return json({ code: 'NOT_FOUND', message: 'x' }, 404);
      sent.push(JSON.parse(String(init.body)));
      return json(answer.body, answer.status);
    }),
  );
  // happy-dom's <dialog> may lack showModal / close.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => vi.unstubAllGlobals());

/** A comment's '신고' button that opens the sheet, as the comment panel does. */
function Harness({ onClosed = () => undefined }: { onClosed?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <button type="button" onClick={() => setOpen(true)}>
        신고
      </button>
      {open && (
        <ReportSheet
          targetType="COMMENT"
          targetId={42}
          onClose={() => {
            setOpen(false);
            onClosed();
          }}
        />
      )}
    </QueryClientProvider>
  );
}

async function openSheet() {
  const user = userEvent.setup();
  render(<Harness />);
  await user.click(screen.getByRole('button', { name: '신고' }));
  return { user, sheet: await screen.findByRole('dialog', { name: '댓글 신고하기' }) };
}

describe('ReportSheet', () => {
  it('lists the six reasons as one labelled radio group', async () => {
    const { sheet } = await openSheet();
    const group = screen.getByRole('group', { name: '신고 사유' });
    expect(sheet).toContainElement(group);
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual([
      '스팸·광고',
      '음란물',
      '폭력·위험',
      '혐오·괴롭힘',
      '저작권',
      '기타',
    ]);
    // The text box appears only for 기타.
    expect(screen.queryByLabelText('기타 사유')).toBeNull();
  });

  it('asks for a reason first, and for the text of 기타, in Korean, before sending anything', async () => {
    const { user } = await openSheet();
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    expect(screen.getByRole('alert')).toHaveTextContent('신고 사유를 선택해주세요.');

    await user.click(screen.getByRole('radio', { name: '기타' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('기타 사유'), '   ');
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    const text = screen.getByLabelText('기타 사유');
    expect(screen.getByRole('alert')).toHaveTextContent('기타 사유를 입력해주세요.');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription('기타 사유를 입력해주세요.');
    expect(text).toHaveFocus();
    expect(sent).toEqual([]);

    await user.type(text, '사칭 계정이에요');
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ targetType: 'COMMENT', targetId: 42, reason: 'OTHER', text: '사칭 계정이에요' }]);
    expect(toastLog).toEqual(['신고가 접수되었습니다. 검토 후 조치할게요.']);
    // Focus goes back to the button that opened the sheet.
    expect(screen.getByRole('button', { name: '신고' })).toHaveFocus();
  });

  it('sends a plain reason without text and confirms with a toast', async () => {
    const { user } = await openSheet();
    await user.click(screen.getByRole('radio', { name: '혐오·괴롭힘' }));
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ targetType: 'COMMENT', targetId: 42, reason: 'HATE' }]);
    expect(toastLog).toEqual(['신고가 접수되었습니다. 검토 후 조치할게요.']);
  });

  it('a second report of the same item closes calmly with the server’s message', async () => {
    answer = { status: 409, body: { success: false, code: 'ALREADY_REPORTED', message: '이미 신고한 콘텐츠입니다.' } };
    const { user } = await openSheet();
    await user.click(screen.getByRole('radio', { name: '스팸·광고' }));
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toastLog).toEqual(['이미 신고한 콘텐츠입니다.']);
  });

  it('any other refusal stays in the sheet, said inline, so the viewer can try again', async () => {
    answer = { status: 400, body: { success: false, code: 'SELF_REPORT', message: '내 콘텐츠는 신고할 수 없습니다.' } };
    const { user } = await openSheet();
    await user.click(screen.getByRole('radio', { name: '저작권' }));
    await user.click(screen.getByRole('button', { name: '신고하기' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('내 콘텐츠는 신고할 수 없습니다.');
    expect(screen.getByRole('dialog', { name: '댓글 신고하기' })).toBeInTheDocument();
    expect(toastLog).toEqual([]);
  });

  it('Escape (the dialog’s cancel) and 취소 close it without sending', async () => {
    const onClosed = vi.fn();
    const user = userEvent.setup();
    render(<Harness onClosed={onClosed} />);
    await user.click(screen.getByRole('button', { name: '신고' }));
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: '신고' }));
    await user.click(screen.getByRole('button', { name: '취소' }));
    expect(onClosed).toHaveBeenCalledTimes(2);
    expect(sent).toEqual([]);
  });
});
