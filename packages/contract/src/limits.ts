/** Business constants (limits, page sizes, durations), shared by server and web. */
export const LIMITS = {
  pinLength: 6,
  feedPageSize: 10,
  previewSize: 5,
  shortsTitleMax: 50,
  shortsContentMax: 150,
  nicknameMax: 20,
  introduceMax: 100,
  commentMax: 300,
  dailyWatchPointLimit: 100,
  rouletteValues: [5, 10, 20, 30, 40, 50] as const,
  rouletteSpinMs: 3500,
  totalPriceMax: 10_000_000,
  requestNameMax: 50,
  nameMax: 20,
  passwordMin: 8,
  passwordMax: 64,
} as const;

/** Request timeouts (docs/rules/api.md#A5). */
export const TIMEOUTS = { shortMs: 10_000, longMs: 30_000 } as const;

export const BANKS = ['국민', '기업', '카카오', '하나', '우리', '신한', '토스'] as const;
export type Bank = (typeof BANKS)[number];
