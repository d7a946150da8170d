import { z } from 'zod';
import { envelope } from './envelope';

export const CHECKIN_MSG = {
  alreadyDone: '오늘은 이미 출석체크를 완료했어요. 내일 다시 만나요!',
  failed: '출석체크에 실패했습니다. 잠시 후 다시 시도해주세요.',
} as const;

/** GET /api/checkin/today: a raw boolean, true when today's (KST) check-in is done. */
export const checkinToday = z.boolean();

/** The `point` parameter is accepted for compatibility and ignored: the server draws the prize. */
export const rouletteQuery = z.object({ point: z.string().max(20).optional() });

export const rouletteResult = z.object({ point: z.number().int(), pointBalance: z.number().int() });
export type RouletteResult = z.infer<typeof rouletteResult>;
export const rouletteResponse = envelope(rouletteResult);
