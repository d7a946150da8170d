/** The console's merchant #3 as the stubbed network answers it in the merchants screens' tests. */
export const cafeMerchant = {
  merchantId: 3,
  name: '카페',
  category: '식비',
  disabled: false,
  keys: 1,
  createdAt: '2026-11-01T00:00:00+09:00',
};

/** Merchant #3's settlement view: 2.5 %, D+1, an unverified account, one pending settlement. */
export const cafeSettlement = {
  merchantId: 3,
  feeBps: 250,
  cycleDays: 1,
  account: { bank: '신한은행', account: '****0123', verified: false },
  payable: 97_500,
  hold: null as null | { reason: string; heldAt: string; heldBy: number | null },
  settlements: [
    {
      settlementId: 11,
      date: '2026-11-02',
      feeBps: 250,
      sales: 100_000,
      refunds: 0,
      fees: 2_500,
      carriedIn: 0,
      net: 97_500,
      payout: 97_500,
      dueDate: '2026-11-03',
      status: 'PENDING',
      paidAt: null,
    },
  ],
};
