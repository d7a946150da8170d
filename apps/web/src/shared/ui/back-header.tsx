import { ChevronLeft } from 'lucide-react';
import { useNavigate } from 'react-router';
import { hasInAppHistory } from '../navigation';
import styles from './back-header.module.css';
import buttons from './button.module.css';

/**
 * A screen's own title bar: a back button and the page's h1. Back is history back, but never out of the
 * app: opened directly (nothing in-app behind it), it goes Home. `sticky` makes it the page's one header,
 * pinned at the top in place of the app header (the chat, whose log scrolls under it); otherwise it sits in
 * the page's flow.
 */
export function BackHeader({ title, titleId, sticky = false }: { title: string; titleId: string; sticky?: boolean }) {
  const navigate = useNavigate();
  const back = () => (hasInAppHistory() ? navigate(-1) : navigate('/'));
  return (
    <header className={sticky ? styles.sticky : styles.inline} data-own-header={sticky ? '' : undefined}>
      <button type="button" className={`${buttons.icon} ${styles.back}`} onClick={back} aria-label="뒤로 가기">
        <ChevronLeft size={24} aria-hidden />
      </button>
      <h1 id={titleId} className={styles.title}>
        {title}
      </h1>
    </header>
  );
}
