import { shortsEndpoints as api, type ReactionType } from '@ohgood/contract/shorts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys, invalidateAfter } from '../../../shared/query-keys';

/** The shorts feature's keys on the shared registry's prefixes. */
export const shortsKeys = {
  /** The feed as loaded for one visit (the target short it opened at is part of the key). */
  feed: (targetId: number | null) => [...dataKeys.shorts, 'feed', targetId] as const,
  one: (id: number) => [...dataKeys.shorts, 'one', id] as const,
  comments: (id: number) => [...dataKeys.shortsComments, id] as const,
  watchToday: [...dataKeys.shorts, 'watch-today'] as const,
};

/*
 * The shorts calls (docs/rules/api.md#A1); the client adds the token when held, so public feeds are
 * personalised. `.data` is taken here, in sight, where the body is the `{success, message, data}` envelope.
 */

/**
 * The public feed, page by page (1-based). Loaded afresh on every visit, never refetched while watched (the
 * slides must not move under the viewer), and not retried silently: the page offers '다시 시도'.
 */
export function useFeedPages(targetId: number | null, size: number) {
  return useInfiniteQuery({
    queryKey: shortsKeys.feed(targetId),
    queryFn: ({ pageParam }) => callEndpoint(api.publicFeed, { query: { page: pageParam, size } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasNext ? last.page + 1 : undefined),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

/** The short a shared link opens at; null for none. */
export function useShort(id: number | null) {
  return useQuery({
    queryKey: shortsKeys.one(id ?? 0),
    queryFn: () => callEndpoint(api.one, { params: { id: id ?? 0 } }),
    enabled: id !== null,
    gcTime: 0,
    retry: false,
  });
}

/** Today's watch points against the daily cap (logged in only). */
export function useWatchToday(enabled: boolean) {
  return useQuery({
    queryKey: shortsKeys.watchToday,
    queryFn: () => callEndpoint(api.watchToday).then((body) => body.data),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

/** A short's comments (the body: `data` is the list); failures show the panel's own retry at once. */
export function useComments(shortsId: number) {
  return useQuery({
    queryKey: shortsKeys.comments(shortsId),
    queryFn: () => callEndpoint(api.comments, { params: { id: shortsId } }).then((body) => body.data),
    staleTime: 0,
    retry: false,
  });
}

/** Writing or deleting a comment: resolves once the short's list has been read again. */
function useCommentChange<V>(shortsId: number, write: (variables: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => invalidateAfter(client, 'comment', [shortsKeys.comments(shortsId)]),
  });
}

export function useAddComment(shortsId: number) {
  return useCommentChange(shortsId, ({ content, gno }: { content: string; gno: number }) =>
    callEndpoint(api.addComment, { params: { id: shortsId }, body: { content, gno } }).then((body) => body.data),
  );
}

export function useDeleteComment(shortsId: number) {
  return useCommentChange(shortsId, (commentId: number) =>
    callEndpoint(api.deleteComment, { params: { id: shortsId, commentId } }).then((body) => body.data),
  );
}

export function useReact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ shortsId, type }: { shortsId: number; type: ReactionType }) =>
      callEndpoint(api.react, { params: { id: shortsId }, body: { shortsId, type } }).then((body) => body.data),
    onSuccess: () => {
      void invalidateAfter(client, 'reaction');
    },
  });
}

export function useSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ targetId, subscribe }: { targetId: number; subscribe: boolean }) =>
      subscribe
        ? callEndpoint(api.subscribe, { params: { targetId } }).then((body) => body.data)
        : callEndpoint(api.unsubscribe, { query: { targetId } }).then((body) => body.data),
    onSuccess: () => {
      void invalidateAfter(client, 'subscription');
    },
  });
}

/** Opens a view on the server: its clock is what pays the watch points. */
export function useOpenView() {
  return useMutation({
    mutationFn: (shortsId: number) =>
      callEndpoint(api.openView, { params: { id: shortsId } }).then((body) => body.data),
  });
}

/** Bare `{success, earnedPoints, todayTotalPoints}`; `success: false` (the daily cap) rejects with its code. */
export function useEarn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ shortsId, watchedSeconds }: { shortsId: number; watchedSeconds: number }) =>
      callEndpoint(api.earn, { body: { watchedSeconds, shortsId } }),
    onSuccess: () => {
      void invalidateAfter(client, 'watchPoints', [shortsKeys.watchToday]);
    },
  });
}
