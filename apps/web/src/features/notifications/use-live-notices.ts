import { NOTICE_STREAM_PATH, type Notice, type NoticeKind } from '@ohgood/contract/notifications';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '../../shared/auth-token';
import { type Change, changes } from '../../shared/query-keys';
import { noticeKeys } from './api/notifications-api';

const RETRY_MS = [1_000, 3_000, 10_000, 30_000];
/**
 * A stream the server replaced (the customer opened more tabs than its ceiling, docs/security.md) comes back
 * when its tab is shown again, or after this long in a tab already shown, so the tabs in view keep theirs.
 */
export const REPLACED_WAIT_MS = 30_000;

/** Resolves once this tab is shown again, or after `REPLACED_WAIT_MS` when it is in view now, or on abort. */
function replacedWait(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const shown = () => {
      if (document.visibilityState === 'visible') done();
    };
    const timer = document.visibilityState === 'visible' ? setTimeout(done, REPLACED_WAIT_MS) : undefined;
    document.addEventListener('visibilitychange', shown);
    signal.addEventListener('abort', done);
  });
}

/** One Server-Sent Events block → its event name, id and parsed data. */
export function parseSseBlock(block: string): { event: string; id?: string; data: unknown } | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return null;
  try {
    return { event, id, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

/**
 * What the fact behind a notice changed, for the notices whose fact another tab, another device or the
 * server's clock made: a payment paid elsewhere changes this tab's home card, limit and point balance as much
 * as its bell. Kinds not named here (comments, moderation) change nothing this tab shows apart from the bell.
 */
const CHANGE_OF_NOTICE: Partial<Record<NoticeKind, Change>> = {
  payment_completed: 'payment',
  refund_credited: 'payment',
  autopay_succeeded: 'repayment',
  autopay_refunded: 'repayment',
  extension_applied: 'extension',
  statement_issued: 'statement',
  overdue: 'statement',
  suspension_lifted: 'statement',
  grade_changed: 'statement',
  limit_changed: 'statement',
  roulette_win: 'attendance',
  watch_cap_reached: 'watchPoints',
  upload_ready: 'upload',
};

/**
 * New notices arrived: the list shows them, and what their facts changed is read again, each kind of data
 * once however many notices of a resumed stream name it.
 */
export function refreshAfterNotices(client: QueryClient, notices: ReadonlyArray<Pick<Notice, 'kind'>>): Promise<void> {
  // The registry's prefixes are shared constants: a set of them holds each once.
  const keys = new Set<QueryKey>([noticeKeys.list]);
  for (const { kind } of notices) {
    const change = CHANGE_OF_NOTICE[kind];
    for (const key of change ? changes[change] : []) keys.add(key);
  }
  return Promise.all([...keys].map((queryKey) => client.invalidateQueries({ queryKey }))).then(() => undefined);
}

/**
 * Keeps this tab's notification badge and list live, and with them what each notice's fact changed
 * (docs/rules/notifications.md#N7): one stream while signed in, read with fetch so the bearer token goes in a
 * header (EventSource cannot send one), reconnecting with `Last-Event-ID` after a drop so no notice is missed;
 * a stream the server replaced waits (`replacedWait`).
 */
export function useLiveNotices(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let lastId: string | undefined;
    let failures = 0;
    let replaced = false;
    // The notices of one read of the stream (a resumed stream's backlog) refresh together, once.
    let arrived: Array<Pick<Notice, 'kind'>> = [];
    const flush = () => {
      const batch = arrived;
      arrived = [];
      void refreshAfterNotices(client, batch);
    };
    const onEvent = (event: string, id: string | undefined, data: unknown) => {
      if (id) lastId = id;
      if (event === 'reconnect' && (data as { reason?: string }).reason === 'replaced') replaced = true;
      const { unread, notice } = data as { unread?: number; notice?: Pick<Notice, 'kind'> };
      if (typeof unread === 'number') client.setQueryData(noticeKeys.unread, unread);
      if (event !== 'notice' || !notice) return;
      if (arrived.length === 0) queueMicrotask(flush);
      arrived.push(notice);
    };
    const connect = async () => {
      while (!abort.signal.aborted) {
        const token = getToken();
        if (!token) return;
        try {
          const response = await fetch(NOTICE_STREAM_PATH, {
            headers: { authorization: `Bearer ${token}`, ...(lastId ? { 'last-event-id': lastId } : {}) },
            signal: abort.signal,
          });
          if (!response.ok || !response.body) throw new Error(`stream ${response.status}`);
          failures = 0;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const parsed = parseSseBlock(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
              if (parsed) onEvent(parsed.event, parsed.id, parsed.data);
            }
          }
        } catch {
          if (abort.signal.aborted) return;
          failures += 1;
        }
        if (replaced) {
          replaced = false;
          await replacedWait(abort.signal);
          continue;
        }
        const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 30_000;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    };
    void connect();
    return () => abort.abort();
  }, [enabled, client]);
}
