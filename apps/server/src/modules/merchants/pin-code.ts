import { randomInt } from 'node:crypto';
import { LIMITS } from '@ohgood/contract/limits';

/** A fresh PIN of `LIMITS.pinLength` random digits from the crypto RNG (the contract's `pinCode` shape). */
export function newPinCode(): string {
  return String(randomInt(0, 10 ** LIMITS.pinLength)).padStart(LIMITS.pinLength, '0');
}
