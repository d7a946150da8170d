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

beforeEach(() => {
  setToken('token');
  resetToastLog();
  uploads = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/upload' && init.method === 'POST' && init.body instanceof FormData) {
        uploads += 1;
        return new Response(JSON.stringify({ success: false, code: 'UPLOAD_BANNED', message: BANNED }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response('{}', { status: 404 });
    }),
  );
  // The page previews the chosen file through an object URL, which happy-dom lacks.
  URL.createObjectURL ??= () => 'blob:preview';
  URL.revokeObjectURL ??= () => undefined;
});
afterEach(() => vi.unstubAllGlobals());

describe('/shorts/upload for an upload-banned creator', () => {
  it('shows the server’s sentence with the date the ban ends, as a toast and on the page', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <UploadPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await user.upload(screen.getByLabelText('동영상 파일'), new File(['video'], 'clip.mp4', { type: 'video/mp4' }));
    await user.type(screen.getByLabelText('제목'), '새 영상');
    await user.type(screen.getByLabelText('내용'), '올려 볼게요');
    await user.click(screen.getByRole('button', { name: '업로드' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(BANNED);
    expect(uploads).toBe(1);
    expect(toastLog).toEqual([BANNED]);
    // Nothing was cleared: the creator keeps what they typed.
    expect(screen.getByLabelText('제목')).toHaveValue('새 영상');
  });
});
