import { LIMITS } from '@ohgood/contract/limits';

/** The six prizes, clockwise from the top of the wheel (`LIMITS.rouletteValues`). */
export const PRIZES: readonly number[] = LIMITS.rouletteValues;
export const SEGMENT_DEG = 360 / PRIZES.length;

/**
 * The wheel's final rotation (degrees, clockwise) so that the server's prize stops under the pointer at
 * the top, after `turns` full turns. Segment i is centred at i × 60° from the top.
 */
export function landingRotation(prize: number, turns = 5): number {
  const index = PRIZES.indexOf(prize);
  if (index < 0) throw new Error(`unknown prize ${prize}`);
  return turns * 360 + ((360 - index * SEGMENT_DEG) % 360);
}

/** Which prize sits under the top pointer after rotating the wheel by `rotation` degrees clockwise. */
export function prizeAt(rotation: number): number {
  const normalized = ((rotation % 360) + 360) % 360;
  const index = Math.round(((360 - normalized) % 360) / SEGMENT_DEG) % PRIZES.length;
  return PRIZES[index] as number;
}
