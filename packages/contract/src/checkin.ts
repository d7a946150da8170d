import { z } from 'zod';
import { defineEndpoint, enveloped } from './endpoint';

/** GET /api/checkin/today: a raw boolean, true when today's (KST) check-in is done. */
export const checkinToday = z.boolean();

/** The `point` parameter is accepted for compatibility and ignored: the server draws the prize. */
export const rouletteQuery = z.object({ point: z.string().max(20).optional() });

export const rouletteResult = z.object({ point: z.number().int(), pointBalance: z.number().int() });
export type RouletteResult = z.infer<typeof rouletteResult>;
export const rouletteResponse = enveloped(rouletteResult);

export const checkinEndpoints = {
  /** Bare `true`/`false`. */
  today: defineEndpoint({
    method: 'GET',
    path: '/api/checkin/today',
    response: checkinToday,
    access: 'customer',
    summary: '오늘 출석 여부 (KST)',
    tags: ['checkin'],
  }),
  roulette: defineEndpoint({
    method: 'POST',
    path: '/api/checkin/roulette',
    query: rouletteQuery,
    response: rouletteResponse,
    access: 'customer',
    summary: '출석 룰렛: 서버가 당첨 포인트를 뽑아 적립',
    tags: ['checkin'],
  }),
} as const;
