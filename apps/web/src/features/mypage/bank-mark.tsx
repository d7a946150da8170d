import { bankName } from '@ohgood/contract/bank';
import type { Bank } from '@ohgood/contract/limits';

/** Our own simple marks: each bank's colour with its first syllable. Not the banks' logos. */
const MARKS: Record<Bank, { bg: string; fg: string; glyph: string }> = {
  국민: { bg: '#ffbc00', fg: '#3d3000', glyph: '국' },
  기업: { bg: '#0a4da2', fg: '#ffffff', glyph: '기' },
  카카오: { bg: '#ffe300', fg: '#3a1d1d', glyph: '카' },
  하나: { bg: '#00928f', fg: '#ffffff', glyph: '하' },
  우리: { bg: '#0067ac', fg: '#ffffff', glyph: '우' },
  신한: { bg: '#0046ff', fg: '#ffffff', glyph: '신' },
  토스: { bg: '#e8f0ff', fg: '#1b64da', glyph: '토' },
};

export function BankMark({ bank, size = 40 }: { bank: Bank; size?: number }) {
  const mark = MARKS[bank];
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" role="img" aria-label={bankName(bank)}>
      <rect width="40" height="40" rx="12" fill={mark.bg} />
      <text
        x="20"
        y="21"
        textAnchor="middle"
        dominantBaseline="central"
        fontSize="18"
        fontWeight="800"
        fill={mark.fg}
        fontFamily="inherit"
      >
        {mark.glyph}
      </text>
    </svg>
  );
}
