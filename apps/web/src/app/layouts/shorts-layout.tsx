import { MSG } from '@ohgood/contract/messages';
import { ChevronLeft, CircleUserRound, Search, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useIsLoggedIn } from '../../shared/auth-token';
import { hasInAppHistory } from '../../shared/navigation';
import { notify } from '../../shared/notify';
import { loginPath } from '../../shared/return-to';
import buttons from '../../shared/ui/button.module.css';
import { BellSlot } from './bell-slot';
import { Footer, isFooterHidden } from './footer';
import styles from './shorts-layout.module.css';

/** The search text is trimmed; empty text gives /shorts/search without q. */
export function searchPath(text: string): string {
  const q = text.trim();
  return q ? `/shorts/search?q=${encodeURIComponent(q)}` : '/shorts/search';
}

export function ShortsLayout() {
  const navigate = useNavigate();
  const loggedIn = useIsLoggedIn();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  // The box shows the query of the search page only: elsewhere a past query would read as a filter.
  const shownQuery = pathname === '/shorts/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(shownQuery);
  useEffect(() => setText(shownQuery), [shownQuery]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(searchPath(text));
  };

  // History back, but never out of the app: a feed opened from a shared link has no in-app
  // entry behind it (the router's history index is 0), so back goes Home.
  const goBack = () => {
    if (hasInAppHistory()) navigate(-1);
    else navigate('/', { replace: true });
  };

  const openMyShorts = () => {
    if (loggedIn) {
      navigate('/shorts/mypage');
      return;
    }
    notify(MSG.loginRequired);
    navigate(loginPath('/shorts/mypage'));
  };

  return (
    <div className={styles.shell} data-layout="shorts">
      <header className={styles.header}>
        <button
          type="button"
          className={`${buttons.icon} ${styles.iconButton}`}
          onClick={goBack}
          aria-label="뒤로 가기"
        >
          <ChevronLeft size={24} aria-hidden />
        </button>
        <search className={styles.search}>
          <form className={styles.searchForm} onSubmit={submit}>
            <label htmlFor="shorts-search" className="visually-hidden">
              쇼츠 검색
            </label>
            <input
              id="shorts-search"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="검색어를 입력해주세요."
              enterKeyHint="search"
              autoComplete="off"
            />
            {text !== '' ? (
              // Our own clear button in the theme's ink (the browser's is blue on the dark header).
              <button
                type="button"
                className={styles.clear}
                aria-label="검색어 지우기"
                onClick={() => {
                  setText('');
                  document.getElementById('shorts-search')?.focus();
                }}
              >
                <X size={16} aria-hidden />
              </button>
            ) : null}
            <button type="submit" aria-label="검색">
              <Search size={18} aria-hidden />
            </button>
          </form>
        </search>
        <BellSlot shown={loggedIn} className={styles.iconButton} />
        <button
          type="button"
          className={`${buttons.icon} ${styles.iconButton}`}
          onClick={openMyShorts}
          aria-label="내 쇼츠"
        >
          <CircleUserRound size={24} aria-hidden />
        </button>
      </header>
      <main className={`${styles.main} ${isFooterHidden(pathname) ? '' : styles.withFooter}`}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
