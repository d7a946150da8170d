import { NOTICE_STREAM_PATH } from '@ohgood/contract/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '../../shared/auth-token';
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
 * Keeps this tab's notification badge and list live (docs/rules/notifications.md#N7): one stream while signed
 * in, read with fetch so the bearer token goes in a header (EventSource cannot send one), reconnecting with
 * `Last-Event-ID` after a drop so no notice is missed; a stream the server replaced waits (`replacedWait`).
 */
export function useLiveNotices(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let lastId: string | undefined;
    let failures = 0;
    let replaced = false;
    const onEvent = (event: string, id: string | undefined, data: unknown) => {
      if (id) lastId = id;
      if (event === 'reconnect' && (data as { reason?: string }).reason === 'replaced') replaced = true;
      const unread = (data as { unread?: number }).unread;
      if (typeof unread === 'number') client.setQueryData(noticeKeys.unread, unread);
      if (event === 'notice') void client.invalidateQueries({ queryKey: noticeKeys.list });
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
