import {
  notificationEndpoints as api,
  type NoticePage,
  type NotificationPreferences,
} from '@ohgood/contract/notifications';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

export const noticeKeys = {
  all: dataKeys.notices,
  list: [...dataKeys.notices, 'list'],
  unread: dataKeys.noticeUnread,
  preferences: [...dataKeys.notices, 'preferences'],
};

export function useNoticePages() {
  return useInfiniteQuery({
    queryKey: noticeKeys.list,
    queryFn: ({ pageParam }) =>
      callEndpoint(api.list, { query: pageParam ? { before: pageParam } : {} }).then((body) => body.data),
    initialPageParam: 0,
    getNextPageParam: (last: NoticePage) => last.nextCursor ?? undefined,
  });
}

export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: noticeKeys.unread,
    queryFn: () => callEndpoint(api.unread).then((body) => body.data.unread),
    enabled,
  });
}

/** Marks one read: the list shows it read at once, the badge takes the server's count. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(api.read, { params: { id } }).then((body) => body.data.unread),
    onMutate: (id) => {
      client.setQueryData<InfiniteData<NoticePage>>(noticeKeys.list, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) => (item.id === id ? { ...item, read: true } : item)),
              })),
            }
          : data,
      );
    },
    onSuccess: (unread) => client.setQueryData(noticeKeys.unread, unread),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(api.readAll).then((body) => body.message),
    onSuccess: () => {
      client.setQueryData(noticeKeys.unread, 0);
      return client.invalidateQueries({ queryKey: noticeKeys.list });
    },
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: noticeKeys.preferences,
    queryFn: () => callEndpoint(api.getPreferences).then((body) => body.data),
  });
}

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (prefs: NotificationPreferences) => callEndpoint(api.setPreferences, { body: prefs }),
    onSuccess: (body) => client.setQueryData(noticeKeys.preferences, body.data),
  });
}
