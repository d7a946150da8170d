/** The payment modal's arithmetic (docs/rules/payments.md#P10); the server enforces the same rules. */

/** Appends a typed digit to the point amount: leading zeros dropped, capped at min(price, points). */
export function typePointDigit(current: number, digit: string, price: number, available: number): number {
  const next = Number(`${current}${digit}`);
  return Math.min(next, maxUsablePoints(price, available));
}

export function maxUsablePoints(price: number, available: number): number {
  return Math.max(0, Math.min(price, available));
}

export function deletePointDigit(current: number): number {
  return Math.floor(current / 10);
}

export function finalAmount(price: number, points: number): number {
  return price - points;
}

export function limitShort(balance: number, price: number, points: number): boolean {
  return balance < finalAmount(price, points);
}
