import { z } from 'zod';
import { ACCOUNT_PATTERN, BIRTH_PATTERN, EMAIL_PATTERN, PASSWORD_CHARS } from './auth-rules';
import { envelope } from './envelope';
import { BANKS, LIMITS } from './limits';

export const registerRequest = z
  .object({
    name: z.string().trim().min(1).max(LIMITS.nameMax),
    emailId: z.string().trim().max(254).regex(EMAIL_PATTERN),
    pwd: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax).regex(PASSWORD_CHARS),
    birth: z.string().regex(BIRTH_PATTERN),
    account: z.string().regex(ACCOUNT_PATTERN),
    accountName: z.enum(BANKS),
  })
  .strict();
export type RegisterRequest = z.infer<typeof registerRequest>;

export const registerResponse = envelope(z.object({ customerId: z.number().int() }));

export const loginRequest = z
  .object({
    emailId: z.string().trim().max(254),
    pwd: z.string().max(LIMITS.passwordMax),
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequest>;

/** Spec §7: POST /auth returns accessToken. */
export const loginResponse = z.object({ accessToken: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['embedded', 'postgres']),
});
