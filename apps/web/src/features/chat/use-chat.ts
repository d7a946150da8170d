import type { ChatProduct, ChatQuickMenu, ChatReply } from '@ohgood/contract/chat';
import { CHAT_MSG, CHAT_TIMINGS, type ChatFlow, FLOW_OPTIONS, OPTION } from '@ohgood/contract/chat-rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../shared/api-client';
import { useChatTurn, useClearChatSession } from './api/chat-api';
import { newSessionId, rememberSessionId, storedSessionId } from './chat-session-id';

export type ChatItem =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'bot'; text: string; shown: number }
  | { id: number; kind: 'product'; product: ChatProduct }
  | { id: number; kind: 'quick'; menu: ChatQuickMenu }
  | { id: number; kind: 'loading' };

type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, 'id'> : never) : never;

type Presentable = Pick<ChatReply, 'message' | 'products' | 'options' | 'quickMenu' | 'flow'>;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** ≥ 500 is the server's problem; anything else (network, timeout, 4xx) is temporary. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 500) return CHAT_MSG.serverError;
  return CHAT_MSG.temporaryError;
}

/** How long the bot "thinks" before answering (`CHAT_TIMINGS`). */
export function thinkingDelay(reply: Pick<ChatReply, 'quickMenu' | 'flow'>): number {
  if (reply.quickMenu) return CHAT_TIMINGS.quickMenuDelayMs;
  if (reply.flow === 'question') return CHAT_TIMINGS.faqAnswerDelayMs;
  return CHAT_TIMINGS.questionGuideDelayMs;
}

const greeting: Presentable = {
  message: CHAT_MSG.greeting,
  products: [],
  options: [...FLOW_OPTIONS.init],
  quickMenu: null,
  flow: 'init',
};

/**
 * The conversation: messages, the bot's typing, options and the current flow. Entering resets the chat
 * (a fresh start on every visit): the stored session is cleared, a new id is made and the bot greets.
 */
export function useChat() {
  const [items, setItems] = useState<ChatItem[]>([]);
  const [options, setOptions] = useState<string[]>([]);
  const [flow, setFlow] = useState<ChatFlow>('init');
  const [busy, setBusyState] = useState(true);
  const busyRef = useRef(true);
  const setBusy = useCallback((value: boolean) => {
    busyRef.current = value;
    setBusyState(value);
  }, []);
  /** Ends the bubble being typed at once (a tap on the conversation, or a new message). */
  const finishTyping = useRef<(() => void) | null>(null);
  const [typing, setTyping] = useState(false);
  /** The reply being shown; a message sent meanwhile waits for it. */
  const presenting = useRef<Promise<void>>(Promise.resolve());
  const nextId = useRef(0);
  const alive = useRef(true);
  const sessionId = useRef<string>('');
  const flowRef = useRef<ChatFlow>('init');
  const optionsRef = useRef<string[]>([]);
  const started = useRef(false);
  const { mutateAsync: sendChat } = useChatTurn();
  const { mutateAsync: clearChatSession } = useClearChatSession();

  const add = useCallback((item: NewItem) => {
    nextId.current += 1;
    const id = nextId.current;
    setItems((list) => [...list, { ...item, id } as ChatItem]);
    return id;
  }, []);
  const remove = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);

  /**
   * Types the text at 20 ms per character (line breaks kept by the bubble's CSS). `finishTyping` shows the
   * rest at once: nobody has to sit through a long answer.
   */
  const typeOut = useCallback(
    async (text: string) => {
      const id = add({ kind: 'bot', text, shown: reducedMotion() ? text.length : 0 });
      if (reducedMotion()) return;
      const started = performance.now();
      const show = (shown: number) =>
        setItems((list) => list.map((i) => (i.id === id && i.kind === 'bot' ? { ...i, shown } : i)));
      await new Promise<void>((resolve) => {
        const finish = () => {
          clearInterval(timer);
          finishTyping.current = null;
          setTyping(false);
          show(text.length);
          resolve();
        };
        const timer = setInterval(() => {
          const shown = Math.min(text.length, Math.floor((performance.now() - started) / CHAT_TIMINGS.typingMsPerChar));
          if (!alive.current || shown >= text.length) finish();
          else show(shown);
        }, CHAT_TIMINGS.typingMsPerChar);
        finishTyping.current = finish;
        setTyping(true);
      });
    },
    [add],
  );

  /** Shows a reply: thinking, typing, product cards one by one, a quick-menu card, then the options. */
  const show = useCallback(
    async (reply: Presentable, delayMs: number) => {
      const loading = add({ kind: 'loading' });
      await wait(delayMs);
      remove(loading);
      if (!alive.current) return;
      await typeOut(reply.message);
      for (const product of reply.products) {
        if (!alive.current) return;
        add({ kind: 'product', product });
        await wait(CHAT_TIMINGS.productStaggerMs);
      }
      if (reply.quickMenu) add({ kind: 'quick', menu: reply.quickMenu });
      flowRef.current = reply.flow;
      optionsRef.current = reply.options;
      setFlow(reply.flow);
      setOptions(reply.options);
      setBusy(false);
    },
    [add, remove, typeOut, setBusy],
  );
  const present = useCallback(
    (reply: Presentable, delayMs: number) => {
      presenting.current = show(reply, delayMs);
      return presenting.current;
    },
    [show],
  );

  useEffect(() => {
    alive.current = true;
    // Once per visit (React's development double effect must not greet twice).
    if (!started.current) {
      started.current = true;
      const previous = storedSessionId();
      if (previous) void clearChatSession(previous).catch(() => undefined);
      sessionId.current = newSessionId();
      void present(greeting, 0);
    }
    return () => {
      alive.current = false;
    };
  }, [present, clearChatSession]);

  const send = useCallback(
    async (raw: string) => {
      const text = raw.trim();
      if (text === '') return;
      // A new message while the bot types: the answer shows in full, then the message goes.
      if (finishTyping.current) {
        finishTyping.current();
        await presenting.current;
      }
      if (busyRef.current) return;
      setBusy(true);
      setOptions([]);
      add({ kind: 'user', text });
      if (text === OPTION.backToStart) {
        // '처음으로' clears the server session and returns to init.
        await clearChatSession(sessionId.current).catch(() => undefined);
        await present(greeting, CHAT_TIMINGS.questionGuideDelayMs);
        return;
      }
      const current = flowRef.current;
      const requestFlow: ChatFlow = text === OPTION.moodRecommend ? 'start' : current;
      try {
        const reply = await sendChat({ sessionId: sessionId.current, inputMessage: text, flow: requestFlow });
        sessionId.current = rememberSessionId(reply.sessionId);
        await present(reply, thinkingDelay(reply));
      } catch (error) {
        await present(
          {
            message: errorMessage(error),
            products: [],
            quickMenu: null,
            flow: current,
            options: optionsRef.current,
          },
          0,
        );
      }
    },
    [add, present, sendChat, clearChatSession, setBusy],
  );

  const skipTyping = useCallback(() => finishTyping.current?.(), []);

  // While the bot types, the input stays open: sending finishes the typing at once.
  return {
    items,
    options,
    flow,
    busy,
    typing,
    send,
    skipTyping,
    inputLocked: (busy && !typing) || flow === 'flow_mismatch',
  };
}
