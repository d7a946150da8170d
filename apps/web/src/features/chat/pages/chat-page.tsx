import type { ChatQuickMenu } from '@ohgood/contract/chat';
import { CHAT_MSG, CHAT_TIMINGS } from '@ohgood/contract/chat-rules';
import { type CSSProperties, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { BackHeader } from '../../../shared/ui/back-header';
import { Mascot } from '../../../shared/ui/mascot';
import styles from '../chat.module.css';
import { ChatComposer } from '../components/chat-composer';
import { ProductCard } from '../components/product-card';
import { QuickMenuCard } from '../components/quick-menu-card';
import { type ChatItem, useChat } from '../use-chat';

export interface ChatPageProps {
  /** Opens the attendance roulette (the check-in quick menu); composed by the app. */
  onCheckin: () => void;
}

function Item({ item, onQuickMenu }: { item: ChatItem; onQuickMenu: (menu: ChatQuickMenu) => void }) {
  switch (item.kind) {
    case 'user':
      return <p className={styles.user}>{item.text}</p>;
    case 'bot': {
      const typing = item.shown < item.text.length;
      return (
        <div className={styles.botRow}>
          <Mascot size={32} />
          <p className={styles.bot} data-testid="chat-bot-message" data-typing={typing}>
            {/* Screen readers get the whole message once; the typing animation is for the eyes. */}
            <span className="visually-hidden">{item.text}</span>
            <span aria-hidden>{item.text.slice(0, item.shown)}</span>
          </p>
        </div>
      );
    }
    case 'product':
      return <ProductCard product={item.product} />;
    case 'quick':
      return <QuickMenuCard menu={item.menu} onOpen={onQuickMenu} />;
    case 'loading':
      return (
        <div className={styles.botRow}>
          <Mascot size={32} />
          <p className={styles.thinking} role="status">
            <span className="visually-hidden">오굿이가 입력 중...</span>
            <span aria-hidden className={styles.dots}>
              <i />
              <i />
              <i />
            </span>
          </p>
        </div>
      );
  }
}

/** The chat screen: header with back, message log, options, and the input. */
export default function ChatPage({ onCheckin }: ChatPageProps) {
  const navigate = useNavigate();
  const { items, options, busy, send, skipTyping, inputLocked } = useChat();
  const end = useRef<HTMLDivElement>(null);

  // Keep the newest message in view: after every message, typed character batch and option change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs because the list changed
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [items, options]);

  const openQuickMenu = (menu: ChatQuickMenu) => {
    if (menu.path === null) onCheckin();
    else navigate(menu.path);
  };

  return (
    <section className={styles.page} aria-labelledby="chat-title">
      <BackHeader title={CHAT_MSG.title} titleId="chat-title" sticky />
      {/* A tap anywhere in the conversation shows the answer being typed in full (the text is already whole for
          screen readers, and a keyboard user's next message does the same). */}
      <div className={styles.log} role="log" aria-live="polite" aria-label="대화 내용" onPointerDown={skipTyping}>
        {items.map((item) => (
          <Item key={item.id} item={item} onQuickMenu={openQuickMenu} />
        ))}
        {options.length > 0 ? (
          <fieldset className={styles.options} disabled={busy}>
            <legend className="visually-hidden">선택지</legend>
            {options.map((option, index) => (
              <button
                key={option}
                type="button"
                className={styles.option}
                style={{ '--delay': `${index * CHAT_TIMINGS.optionStaggerMs}ms` } as CSSProperties}
                onClick={() => void send(option)}
              >
                {option}
              </button>
            ))}
          </fieldset>
        ) : null}
        <div ref={end} className={styles.end} />
      </div>
      <ChatComposer disabled={inputLocked} onSend={(text) => void send(text)} />
    </section>
  );
}
