import { generateSecret, generateURI, verify } from 'otplib';

/**
 * The second factor of operators and merchant users: RFC 6238 codes (30 s steps, 6 digits, SHA-1: what every
 * authenticator app reads from a QR), through `otplib`. A code is good within one step either side, and once
 * only: the step it matched must be later than the last accepted one (docs/rules/operations.md#O2).
 */
const TOTP_PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** `issuer` is the name the authenticator app shows above the code ('오굿페이 운영', '오굿페이 가맹점'). */
export function totpUri(issuer: string, email: string, secret: string): string {
  return generateURI({ issuer, label: email, secret });
}

/** The step a code matched at `now`, or null when it is wrong, stale or already used. */
export async function matchTotp(secret: string, code: string, now: Date, lastStep: number): Promise<number | null> {
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: 30, afterTimeStep: lastStep });
  return result.valid ? Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta : null;
}
