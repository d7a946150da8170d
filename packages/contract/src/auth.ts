import { z } from 'zod';
import { ACCOUNT_PATTERN, BIRTH_PATTERN, EMAIL_PATTERN, PASSWORD_CHARS } from './auth-rules';
import { defineEndpoint, enveloped } from './endpoint';
import { plainText } from './input';
import { BANKS, LIMITS } from './limits';

export const registerRequest = z
  .object({
    name: plainText().trim().min(1).max(LIMITS.nameMax),
    emailId: z.string().trim().max(254).regex(EMAIL_PATTERN),
    pwd: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax).regex(PASSWORD_CHARS),
    birth: z.string().regex(BIRTH_PATTERN),
    account: z.string().regex(ACCOUNT_PATTERN),
    accountName: z.enum(BANKS),
  })
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
