import { bankName } from '@ohgood/contract/bank';
import type { Bank } from '@ohgood/contract/limits';
import type { ReactNode } from 'react';

/**
 * Our own drawn marks, one simple figure per bank in a colour close to the bank's: a star, a building, a
 * speech bubble, two leaves, a rising sun, a crescent, a paper plane. None copies a bank's logo; they only
 * make the connected account recognisable at a glance. Drawn on a 40 × 40 tile.
 */
const MARKS: Record<Bank, { bg: string; fg: string; figure: (fg: string) => ReactNode }> = {
  국민: {
    bg: '#ffbc00',
    fg: '#3d3000',
    figure: (fg) => <path d="M20 9l3.2 6.9 7.5.8-5.6 5.1 1.6 7.4L20 25.4l-6.7 3.8 1.6-7.4-5.6-5.1 7.5-.8z" fill={fg} />,
  },
  기업: {
    bg: '#0a4da2',
    fg: '#ffffff',
    figure: (fg) => (
      <g fill={fg}>
        <path d="M20 9l11 6H9z" />
        <rect x="11" y="17" width="3" height="10" rx="1" />
        <rect x="18.5" y="17" width="3" height="10" rx="1" />
        <rect x="26" y="17" width="3" height="10" rx="1" />
        <rect x="9" y="28" width="22" height="3" rx="1" />
      </g>
    ),
  },
  카카오: {
    bg: '#ffe300',
    fg: '#3a1d1d',
    figure: (fg) => (
      <path
        d="M20 10c6.6 0 12 4.1 12 9.2s-5.4 9.2-12 9.2c-1 0-2-.1-2.9-.3L12 31l1.3-5.1C10 24.2 8 21.9 8 19.2 8 14.1 13.4 10 20 10z"
        fill={fg}
      />
    ),
  },
  하나: {
    bg: '#00928f',
    fg: '#ffffff',
    figure: (fg) => (
      <g fill={fg}>
        <path d="M19 30C12 29 9 22 12 11c7 3 10 10 7 19z" />
        <path d="M21 30c7-1 10-8 7-19-7 3-10 10-7 19z" opacity="0.75" />
      </g>
    ),
  },
  우리: {
    bg: '#0067ac',
    fg: '#ffffff',
    figure: (fg) => (
      <g fill={fg}>
        <path d="M9 26a11 11 0 0 1 22 0z" />
        <rect x="7" y="28" width="26" height="3" rx="1.5" />
      </g>
    ),
  },
  신한: {
    bg: '#0046ff',
    fg: '#ffffff',
    figure: (fg) => <path d="M23 9a11 11 0 1 0 8 18.5A9 9 0 1 1 23 9z" fill={fg} />,
  },
  토스: {
    bg: '#e8f0ff',
    fg: '#1b64da',
    figure: (fg) => (
      <g fill={fg}>
        <path d="M8 19.5L32 10l-6.5 21-6-7.5z" />
        <path d="M19.5 23.5L32 10 17 21z" opacity="0.6" />
      </g>
    ),
  },
};

export function BankMark({ bank, size = 40 }: { bank: Bank; size?: number }) {
  const mark = MARKS[bank];
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" role="img" aria-label={bankName(bank)} data-bank={bank}>
      <rect width="40" height="40" rx="12" fill={mark.bg} />
      {mark.figure(mark.fg)}
    </svg>
  );
}
