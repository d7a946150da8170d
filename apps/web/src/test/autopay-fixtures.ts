import type { AutopaySetting } from '@ohgood/contract/autopay';

/** An autopay setting turned on but waiting for the customer's consent: the card at its tallest. */
export const pendingAutopay: AutopaySetting = {
  autopay: true,
  account: '123-****-901',
  accountName: '국민',
  state: 'pending',
  pendingReason: 'consent',
  verified: false,
  consentVersion: null,
  verification: null,
};
