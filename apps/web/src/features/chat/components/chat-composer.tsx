import { CHAT_INPUT_MAX, CHAT_MSG } from '@ohgood/contract/chat-rules';
import { SendHorizontal } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import { TOAST_CLEARANCE } from '../../../shared/ui/toaster';
import styles from '../chat.module.css';

/** Enter sends, Shift+Enter is a new line, blank input is ignored; locked while the bot types. */
export function ChatComposer({ disabled, onSend }: { disabled: boolean; onSend: (text: string) => void }) {
  const [text, setText] = useState('');
  const submit = () => {
    if (disabled || text.trim() === '') return;
    onSend(text);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While a Korean syllable is still being composed, Enter finishes it; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };
  return (
    <form
      {...TOAST_CLEARANCE}
      className={styles.composer}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="chat-input" className="visually-hidden">
        메시지
      </label>
      <textarea
        id="chat-input"
        className={styles.input}
        rows={1}
        maxLength={CHAT_INPUT_MAX}
        value={text}
        placeholder={CHAT_MSG.placeholder}
        // Read-only rather than disabled while locked: a disabled field loses focus and the phone's keyboard
        // would close after every message.
        readOnly={disabled}
        aria-disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        enterKeyHint="send"
      />
      <button
        type="submit"
        className={styles.send}
        disabled={disabled || text.trim() === ''}
        aria-label={CHAT_MSG.send}
      >
        <SendHorizontal size={20} aria-hidden />
      </button>
    </form>
  );
}
