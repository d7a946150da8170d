import type { Bank } from './limits';

/** How each bank is named on screen: the internet-only banks by their own names (토스뱅크, 카카오뱅크). */
export const BANK_NAMES: Record<Bank, string> = {
  국민: 'KB국민은행',
  기업: 'IBK기업은행',
  카카오: '카카오뱅크',
  하나: '하나은행',
  우리: '우리은행',
  신한: '신한은행',
  토스: '토스뱅크',
};

/** A stored bank code ('토스') as shown ('토스뱅크'); an unknown code is shown as it is. */
export function bankName(bank: string): string {
  return (BANK_NAMES as Record<string, string>)[bank] ?? bank;
}

/**
 * The one account-masking rule, used by the server before an account number leaves it and by
 * the web app: four stars and the last four digits ('1002345678901' → '****8901'). The stars never reveal
 * the length, and masking a masked number changes nothing.
 */
export function maskAccount(account: string): string {
  const digits = account.replace(/[^\d]/g, '');
  return digits.length <= 4 ? account : `****${digits.slice(-4)}`;
}
