import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToken, logout, setToken } from '../shared/auth-token';
import { currentToast, dismissToast } from '../shared/toast';
import { RequireAuth } from './require-auth';

let goTo: (path: string) => void = () => undefined;

function Where() {
  const { pathname, search } = useLocation();
  goTo = useNavigate();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Where />
      <Routes>
        <Route path="/" element={<p>홈</p>} />
        <Route path="/login" element={<p>로그인</p>} />
        <Route element={<RequireAuth />}>
          <Route path="/mypage" element={<p>마이페이지</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

const where = () => screen.getByTestId('where').textContent;

afterEach(() => {
  clearToken();
  dismissToast();
});

describe('RequireAuth', () => {
  it('leaves the page the user was on when logging out for home, without asking for a login', () => {
    setToken('tok');
    renderAt('/mypage');
    expect(screen.getByText('마이페이지')).toBeTruthy();
    act(() => logout());
    expect(where()).toBe('/');
    expect(currentToast()).toBeNull();
  });

  it('asks for a login on a guarded page opened after logging out', () => {
    setToken('tok');
    renderAt('/');
    act(() => logout());
    act(() => goTo('/mypage'));
    expect(where()).toBe('/login?next=%2Fmypage');
    expect(currentToast()?.message).toBe('로그인 후 이용 가능합니다.');
  });

  it('asks for a login on a guarded page opened without a session', () => {
    renderAt('/mypage?tab=1');
    expect(where()).toBe('/login?next=%2Fmypage%3Ftab%3D1');
    expect(currentToast()?.message).toBe('로그인 후 이용 가능합니다.');
    expect(screen.queryByText('마이페이지')).toBeNull();
  });

  it("shows a guarded page's skeleton while the session is read, as the page's prerendered HTML does", () => {
    setToken('tok');
    // Rendered as the build prerenders it: nobody is known yet.
    const html = (path: string) =>
      renderToString(
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route element={<RequireAuth />}>
              <Route path="/mypage" element={<p>마이페이지 내용</p>} />
              <Route path="/chat" element={<p>채팅 내용</p>} />
            </Route>
          </Routes>
        </MemoryRouter>,
      );
    expect(html('/mypage')).toContain('data-testid="page-skeleton"');
    expect(html('/mypage')).not.toContain('마이페이지 내용');
    // A page without a skeleton shows nothing until the session is known.
    expect(html('/chat')).toBe('');
  });
});
