import { z } from 'zod';
import {
  ACCOUNT_PATTERN,
  BIRTH_PATTERN,
  EMAIL_PATTERN,
  normalizeAccount,
  PASSWORD_CHARS,
  SIGNUP_RULES as RULE,
} from './auth-rules';
import { defineEndpoint, enveloped } from './endpoint';
import { isDisplayable } from './input';
import { BANKS, LIMITS } from './limits';

/**
 * Every rule carries its Korean refusal (`SIGNUP_RULES`), which names the field: the error handler sends it
 * with the field's key. The account may be typed with hyphens or spaces; it is stored as digits.
 */
export const registerRequest = z
  .object(
    {
      name: z
        .string({ error: RULE.name })
        .refine(isDisplayable, { error: RULE.name })
        .overwrite((value) => value.normalize('NFC'))
        .trim()
        .min(1, { error: RULE.name })
        .max(LIMITS.nameMax, { error: RULE.name }),
      emailId: z
        .string({ error: RULE.emailId })
        .trim()
        .max(254, { error: RULE.emailId })
        .regex(EMAIL_PATTERN, { error: RULE.emailId }),
      pwd: z
        .string({ error: RULE.pwd })
        .min(LIMITS.passwordMin, { error: RULE.pwd })
        .max(LIMITS.passwordMax, { error: RULE.pwd })
        .regex(PASSWORD_CHARS, { error: RULE.pwd }),
      birth: z.string({ error: RULE.birth }).regex(BIRTH_PATTERN, { error: RULE.birth }),
      account: z
        .string({ error: RULE.account })
        .max(40, { error: RULE.account })
        .transform(normalizeAccount)
        .pipe(z.string().regex(ACCOUNT_PATTERN, { error: RULE.account })),
      accountName: z.enum(BANKS, { error: RULE.accountName }),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? RULE.unknown : undefined) },
  )
  .strict();
export type RegisterRequest = z.infer<typeof registerRequest>;

export const registerResponse = enveloped(z.object({ customerId: z.number().int() }));

export const loginRequest = z
  .object({
    emailId: z.string().trim().max(254),
    pwd: z.string().max(LIMITS.passwordMax),
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequest>;

/** POST /auth returns a bare accessToken (docs/rules/api.md#A1). */
export const loginResponse = z.object({ accessToken: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['embedded', 'postgres']),
});

export const authEndpoints = {
  register: defineEndpoint({
    method: 'POST',
    path: '/api/public/register',
    body: registerRequest,
    response: registerResponse,
    access: 'public',
    summary: '회원가입',
    tags: ['auth'],
  }),
  /** Bare `{accessToken}` (docs/rules/api.md#A1). */
  login: defineEndpoint({
    method: 'POST',
    path: '/auth',
    body: loginRequest,
    response: loginResponse,
    access: 'public',
    summary: '로그인',
    tags: ['auth'],
  }),
  health: defineEndpoint({
    method: 'GET',
    path: '/health',
    response: healthResponse,
    access: 'public',
    summary: '상태 확인 (데이터베이스 포함)',
    tags: ['system'],
  }),
} as const;
