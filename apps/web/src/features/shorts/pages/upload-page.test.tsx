import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import UploadPage from './upload-page';

const BANNED = '운영정책 위반으로 2026-11-29까지 쇼츠를 올릴 수 없습니다.';
let uploads: number;
/** The server's refusal of the next upload. */
let refusal: { status: number; code: string; message: string };

beforeEach(() => {
  setToken('token');
  resetToastLog();
  sessionStorage.removeItem('shortsUploadFile');
  uploads = 0;
  refusal = { status: 403, code: 'UPLOAD_BANNED', message: BANNED };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/upload' && init.method === 'POST' && init.body instanceof FormData) {
        uploads += 1;
        const { status, code, message } = refusal;
        return new Response(JSON.stringify({ success: false, code, message }), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      }
      // The handed-off file, read back through its object URL.
      if (url.startsWith('blob:')) return new Response(new Blob(['video'], { type: 'video/mp4' }));
      return new Response('{}', { status: 404 });
    }),
  );
  // The page previews the chosen file through an object URL, which happy-dom lacks.
  URL.createObjectURL ??= () => 'blob:preview';
  URL.revokeObjectURL ??= () => undefined;
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/shorts/upload']}>
        <UploadPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Picks a video, types a title and content, and sends the form. */
async function sendUpload(user: ReturnType<typeof userEvent.setup>) {
  await user.upload(screen.getByLabelText('동영상 파일'), new File(['video'], 'clip.mp4', { type: 'video/mp4' }));
  await user.type(screen.getByLabelText('제목'), '새 영상');
  await user.type(screen.getByLabelText('내용'), '올려 볼게요');
  await user.click(screen.getByRole('button', { name: '업로드' }));
}

describe('/shorts/upload for an upload-banned creator', () => {
  it('shows the server’s sentence with the date the ban ends, as a toast and on the page', async () => {
    const user = userEvent.setup();
    renderPage();
    await sendUpload(user);

    expect(await screen.findByRole('alert')).toHaveTextContent(BANNED);
    expect(uploads).toBe(1);
    expect(toastLog).toEqual([BANNED]);
    // Nothing was cleared: the creator keeps what they typed.
    expect(screen.getByLabelText('제목')).toHaveValue('새 영상');
  });
});

describe('/shorts/upload refused before the upload was read', () => {
  it('says the size limit in the toast, never a bare network error', async () => {
    refusal = { status: 413, code: 'FILE_TOO_LARGE', message: '파일은 100MB 이하만 올릴 수 있습니다.' };
    const user = userEvent.setup();
    renderPage();
    await sendUpload(user);
    await vi.waitFor(() =>
      expect(toastLog).toEqual(['업로드 중 오류가 발생했습니다: 파일은 100MB 이하만 올릴 수 있습니다.']),
    );
  });

  it('on an expired session says so once and keeps the file and words for the upload page after the login', async () => {
    refusal = { status: 401, code: 'UNAUTHORIZED', message: '인증이 필요합니다. 다시 로그인해주세요.' };
    const user = userEvent.setup();
    const first = renderPage();
    await sendUpload(user);
    await vi.waitFor(() => expect(toastLog).toEqual(['로그인이 만료되었어요. 다시 로그인해 주세요.']));
    first.unmount();

    // Back from the login page: the same form, ready to send again.
    setToken('new-token');
    renderPage();
    expect(await screen.findByTestId('upload-restored')).toHaveTextContent('올리던 영상과 글을 다시 불러왔어요.');
    expect(screen.getByLabelText('제목')).toHaveValue('새 영상');
    expect(screen.getByLabelText('내용')).toHaveValue('올려 볼게요');
    expect(screen.getByTestId('upload-preview')).toBeInTheDocument();
  });
});
