import { won } from '../../../shared/format';
import { finalAmount, maxUsablePoints } from './payment-math';

/**
 * The line under a payment the limit cannot take: by how much it is short and, only when the points still
 * unused could cover part of that, that points would reduce it (with no such points the hint would be a dead
 * end).
 */
export function limitGapText(balance: number, price: number, points: number, available: number): string {
  const gap = finalAmount(price, points) - balance;
  const unused = maxUsablePoints(price, available) - points;
  return unused > 0 ? `${won(gap)} 더 필요해요. 포인트를 쓰면 줄일 수 있어요.` : `${won(gap)} 더 필요해요.`;
}
