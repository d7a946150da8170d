import { z } from 'zod';
import { defineEndpoint, enveloped } from './endpoint';

/*
 * The notification center (docs/rules/notifications.md): categories, kinds, rule numbers and the API. The
 * Korean copy of each notice is written by the server from its event (modules/notifications/notice-copy.ts).
 */

/** 결제·청구 (always in-app, push optional), 커뮤니티, 혜택. */
export const NOTICE_CATEGORIES = ['billing', 'community', 'benefit'] as const;
export type NoticeCategory = (typeof NOTICE_CATEGORIES)[number];
export const NOTICE_CATEGORY_LABELS: Record<NoticeCategory, string> = {
  billing: '결제·청구',
  community: '커뮤니티',
  benefit: '혜택',
};

export const NOTICE_KINDS = [
  'payment_completed',
  'refund_credited',
  'statement_issued',
  'reminder_d3',
  'reminder_dday',
  'autopay_succeeded',
  'autopay_failed',
  'autopay_refunded',
  'extension_applied',
  'overdue',
  'suspension_lifted',
  'grade_changed',
  'limit_changed',
  'roulette_win',
  'watch_cap_reached',
  'upload_ready',
  'upload_failed',
  'comment_reply',
  'short_comment',
  'creator_new_short',
  'content_hidden',
  'content_restored',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NOTIFICATION_RULES = {
  /** Notices older than this are deleted by the daily prune. */
  retentionDays: 90,
  /** Default quiet hours, KST minutes of the day: 21:00–08:00. */
  quietStart: 21 * 60,
  quietEnd: 8 * 60,
  /** A subscribed creator's new shorts make at most one notice per this many minutes. */
  creatorBatchMinutes: 60,
  /** The reminder before the due date, in days (D-3), and the KST minute the reminders go out (08:00). */
  reminderDaysBefore: 3,
  reminderMinute: 8 * 60,
  /** Page size of the list. */
  pageSize: 20,
  /** Devices that receive a customer's pushes; a new one beyond this replaces the oldest. */
  pushDevicesMax: 10,
} as const;

export const notice = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  category: z.enum(NOTICE_CATEGORIES),
  title: z.string(),
  body: z.string(),
  /** An in-app path the notice opens (a bill, a receipt, a short, a comment). */
  link: z.string(),
  /** ISO instant. */
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notice = z.infer<typeof notice>;

export const noticePage = z.object({
  items: z.array(notice),
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: z.number().int().nullable(),
  unread: z.number().int(),
  /** KST today, so the web groups by the server's calendar ('오늘', '어제'). */
  today: z.string(),
});
export type NoticePage = z.infer<typeof noticePage>;

export const noticeListQuery = z.object({
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '시간은 HH:MM 형식이어야 합니다.');

export const notificationPreferences = z.object({
  billingPush: z.boolean(),
  communityInApp: z.boolean(),
  communityPush: z.boolean(),
  benefitInApp: z.boolean(),
  benefitPush: z.boolean(),
  quietHours: z.boolean(),
  quietStart: hhmm,
  quietEnd: hhmm,
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/** A browser's PushSubscription as `toJSON()` gives it. */
export const pushSubscriptionBody = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const noticeIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Path of the live stream (Server-Sent Events, outside the JSON contract): `event: notice`, `id` = notice id. */
export const NOTICE_STREAM_PATH = '/api/notifications/stream';

export const notificationEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/notifications',
    query: noticeListQuery,
    response: enveloped(noticePage),
    access: 'customer',
    summary: '알림 목록 (최신순)',
    tags: ['notifications'],
  }),
  unread: defineEndpoint({
    method: 'GET',
    path: '/api/notifications/unread-count',
    response: enveloped(z.object({ unread: z.number().int() })),
    access: 'customer',
    summary: '읽지 않은 알림 수',
    tags: ['notifications'],
  }),
  read: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/:id/read',
    params: noticeIdParams,
    response: enveloped(z.object({ unread: z.number().int() })),
    access: 'customer',
    summary: '알림 읽음',
    tags: ['notifications'],
  }),
  readAll: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/read-all',
    response: enveloped(z.object({ unread: z.number().int() })),
    access: 'customer',
    summary: '모두 읽음',
    tags: ['notifications'],
  }),
  getPreferences: defineEndpoint({
    method: 'GET',
    path: '/api/notifications/preferences',
    response: enveloped(notificationPreferences),
    access: 'customer',
    summary: '알림 설정',
    tags: ['notifications'],
  }),
  setPreferences: defineEndpoint({
    method: 'PUT',
    path: '/api/notifications/preferences',
    body: notificationPreferences,
    response: enveloped(notificationPreferences),
    access: 'customer',
    summary: '알림 설정 저장',
    tags: ['notifications'],
  }),
  pushKey: defineEndpoint({
    method: 'GET',
    path: '/api/notifications/push/key',
    response: enveloped(z.object({ publicKey: z.string() })),
    access: 'customer',
    summary: '웹 푸시 공개 키 (VAPID)',
    tags: ['notifications'],
  }),
  subscribe: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/push/subscriptions',
    body: pushSubscriptionBody,
    /** `replaced`: how many older devices stopped receiving pushes to keep `pushDevicesMax`. */
    response: enveloped(z.object({ subscribed: z.literal(true), replaced: z.number().int().min(0) })),
    access: 'customer',
    summary: '이 기기에서 푸시 받기',
    tags: ['notifications'],
  }),
  unsubscribe: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/push/subscriptions/remove',
    body: z.object({ endpoint: z.string().max(2000) }),
    response: enveloped(z.object({ subscribed: z.literal(false) })),
    access: 'customer',
    summary: '이 기기의 푸시 끄기',
    tags: ['notifications'],
  }),
} as const;
