import type { ChatQuickMenu } from '@ohgood/contract/chat';
import { ChevronRight } from 'lucide-react';
import styles from '../chat.module.css';

/** A navigation card (a quick menu); check-in has no path and opens the roulette. */
export function QuickMenuCard({ menu, onOpen }: { menu: ChatQuickMenu; onOpen: (menu: ChatQuickMenu) => void }) {
  return (
    <button type="button" className={styles.quick} onClick={() => onOpen(menu)} data-testid="chat-quick-menu">
      <span>
        <span className={styles.quickEyebrow}>바로가기</span>
        <span className={styles.quickTitle}>{menu.title}</span>
      </span>
      <ChevronRight size={22} aria-hidden />
    </button>
  );
}
