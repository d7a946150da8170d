import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../shared/auth-token';
import { jsonAnswer, stubXhr, type XhrRoute } from '../../../test/stub-xhr';
import { resetToastLog, toastLog } from '../../../test/toast-log';
import UploadPage from './upload-page';

const BANNED = '운영정책 위반으로 2026-11-29까지 쇼츠를 올릴 수 없습니다.';
let uploads: number;
/** The server's refusal of the next upload. */
let refusal: { status: number; code: string; message: string };
/** How the upload's request goes (the browser's XMLHttpRequest, stubbed): by default, refused at once. */
let uploadRoute: XhrRoute;
/** The status endpoint's answers, one per poll. */
let statuses: string[];

beforeEach(() => {
  setToken('token');
  resetToastLog();
  sessionStorage.removeItem('shortsUploadFile');
  uploads = 0;
  refusal = { status: 403, code: 'UPLOAD_BANNED', message: BANNED };
  uploadRoute = () => {
    const { status, code, message } = refusal;
    return jsonAnswer(status, { success: false, code, message });
  };
  statuses = [];
  stubXhr((call, progress) => {
    if (call.url !== '/api/upload' || call.method !== 'POST' || !(call.body instanceof FormData))
      return jsonAnswer(404, {});
    uploads += 1;
    return uploadRoute(call, progress);
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/shorts/7/status') {
        const status = statuses.shift() ?? 'READY';
        return jsonAnswer(200, { success: true, message: 'OK', data: { shortsId: 7, status, failureReason: null } });
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

/** Where the page went once the upload landed. */
function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname + location.search}</p>;
}

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/shorts/upload']}>
        <Routes>
          <Route path="/shorts/upload" element={<UploadPage />} />
          <Route path="/shorts/feeds" element={<Landed />} />
        </Routes>
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

/** A step the test lets the stub browser take. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('/shorts/upload: the upload’s own card', () => {
  it('counts the bytes sent in percent, says it in quarters, then the transcode, then opens the feed at it', async () => {
    const partway = gate();
    const rest = gate();
    uploadRoute = async (_call, progress) => {
      await partway.opened;
      progress(300, 1000);
      progress(305, 1000);
      await rest.opened;
      progress(1000, 1000);
      const data = { shortsId: 7, status: 'PROCESSING', thumbnail: '/t.jpg' };
      return jsonAnswer(200, { success: true, message: 'OK', data });
    };
    statuses = ['READY'];
    const user = userEvent.setup();
    renderPage();
    await sendUpload(user);

    // At once, before the browser's first progress event.
    const card = await screen.findByTestId('upload-card');
    const state = within(card).getByTestId('upload-card-state');
    const bar = within(card).getByRole('progressbar', { name: '업로드 진행' });
    const live = within(card).getByRole('status');
    expect(state).toHaveTextContent('업로드 중 0%');
    expect(live).toHaveTextContent('영상을 올리는 중이에요.');

    partway.open();
    await vi.waitFor(() => expect(state).toHaveTextContent('업로드 중 30%'));
    // 305 of 1000 is still 30 %: the card keeps its render rather than follow every progress event.
    expect(bar).toHaveAttribute('value', '300');
    expect(bar).toHaveAttribute('max', '1000');
    expect(bar).toHaveAttribute('aria-valuetext', '업로드 중 30%');
    // Said politely at each quarter, not at every percent.
    expect(live).toHaveTextContent('업로드 중 25%');

    rest.open();
    await vi.waitFor(() => expect(state).toHaveTextContent('영상을 변환하고 있어요.'));
    // The server does not say how far its transcode is: the bar runs without a value.
    expect(bar).not.toHaveAttribute('value');
    expect(live).toHaveTextContent('영상을 변환하고 있어요. 끝나면 피드에서 바로 재생돼요.');

    expect(await screen.findByTestId('landed', {}, { timeout: 5_000 })).toHaveTextContent('/shorts/feeds?shortsId=7');
    expect(uploads).toBe(1);
    expect(toastLog).toEqual([]);
  });

  it('when the connection drops mid-upload says so and keeps the form to send again', async () => {
    uploadRoute = (_call, progress) => {
      progress(200, 1000);
      return 'network-error';
    };
    const user = userEvent.setup();
    renderPage();
    await sendUpload(user);
    await vi.waitFor(() =>
      expect(toastLog).toEqual(['업로드 중 오류가 발생했습니다: 네트워크 오류가 발생했습니다. 다시 시도해주세요.']),
    );
    expect(screen.queryByTestId('upload-card')).not.toBeInTheDocument();
    expect(screen.getByLabelText('제목')).toHaveValue('새 영상');
    expect(screen.getByRole('button', { name: '업로드' })).toBeEnabled();
  });
});
