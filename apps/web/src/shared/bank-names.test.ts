import { BANK_NAMES, maskAccount } from '@ohgood/contract/bank';
import { BANKS } from '@ohgood/contract/limits';
import { describe, expect, it } from 'vitest';

describe('bank names and account masking', () => {
  it('names the internet banks by their brand', () => {
    expect(BANK_NAMES.토스).toBe('토스뱅크');
    expect(BANK_NAMES.카카오).toBe('카카오뱅크');
    for (const bank of BANKS) expect(BANK_NAMES[bank]).toMatch(/(은행|뱅크)$/);
  });

  it('shows only the last four digits, hides the length, and is idempotent', () => {
    expect(maskAccount('1002345678901')).toBe('****8901');
    expect(maskAccount('110-123-456789')).toBe('****6789');
    expect(maskAccount('****8901')).toBe('****8901');
    expect(maskAccount('1234')).toBe('1234');
  });
});
