import { NOTICE_STREAM_PATH, type Notice, type NoticeKind } from '@ohgood/contract/notifications';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '../../shared/auth-token';
import { followEventStream, type StreamEvent } from '../../shared/event-stream';
import { type Change, changes } from '../../shared/query-keys';
import { noticeKeys } from './api/notifications-api';

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

/** An event's data as JSON, or null for a body that is not (the stream is read on regardless). */
function json(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * Keeps this tab's notification badge and list live, and with them what each notice's fact changed
 * (docs/rules/notifications.md#N7): one stream while signed in, followed by the shared reader
 * (`shared/event-stream.ts`: the bearer token in a header, `Last-Event-ID` after a drop so no notice is
 * missed, back-off); a stream the server replaced waits (`replacedWait`).
 */
export function useLiveNotices(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let replaced = false;
    // The notices of one read of the stream (a resumed stream's backlog) refresh together, once.
    let arrived: Array<Pick<Notice, 'kind'>> = [];
    const flush = () => {
      const batch = arrived;
      arrived = [];
      void refreshAfterNotices(client, batch);
    };
    const onEvent = ({ type, data }: StreamEvent) => {
      const body = json(data) as { reason?: string; unread?: number; notice?: Pick<Notice, 'kind'> } | null;
      if (!body) return;
      if (type === 'reconnect' && body.reason === 'replaced') replaced = true;
      if (typeof body.unread === 'number') client.setQueryData(noticeKeys.unread, body.unread);
      if (type !== 'notice' || !body.notice) return;
      if (arrived.length === 0) queueMicrotask(flush);
      arrived.push(body.notice);
    };
    followEventStream({
      url: NOTICE_STREAM_PATH,
      headers: () => {
        const token = getToken();
        return token ? { authorization: `Bearer ${token}` } : null;
      },
      onEvent,
      signal: abort.signal,
      waitBeforeReconnect: (signal) => {
        if (!replaced) return null;
        replaced = false;
        return replacedWait(signal);
      },
    }).catch(() => undefined);
    return () => abort.abort();
  }, [enabled, client]);
}
