import { z } from 'zod';
import { envelope } from './envelope';

/** GET /api/checkin/today: a raw boolean, true when today's (KST) check-in is done. */
export const checkinToday = z.boolean();

/** The `point` parameter is accepted for compatibility and ignored: the server draws the prize. */
export const rouletteQuery = z.object({ point: z.string().max(20).optional() });

export const rouletteResult = z.object({ point: z.number().int(), pointBalance: z.number().int() });
export type RouletteResult = z.infer<typeof rouletteResult>;
export const rouletteResponse = envelope(rouletteResult);
