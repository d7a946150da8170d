import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock';
import { createTokenService, TOKEN_TTL_SECONDS } from './tokens';

const SECRET = 'test-secret-test-secret-test-secret-1234';
const at = new Date('2026-11-22T09:00:00+09:00');
const key = new TextEncoder().encode(SECRET);

describe('login tokens (HS256 JWT)', () => {
  const tokens = createTokenService(SECRET, new ManualClock(at));

  it('issues standard JWTs an independent library verifies, with our claims', async () => {
    const token = await tokens.issue(42);
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: at });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload.sub).toBe('42');
    expect(payload.exp).toBe(Math.floor(at.getTime() / 1000) + TOKEN_TTL_SECONDS);
    expect(await tokens.verify(token)).toBe(42);
  });

  it('accepts a JWT another library signed the same way, until it expires', async () => {
    const iat = Math.floor(at.getTime() / 1000);
    const other = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('7')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    expect(await tokens.verify(other)).toBe(7);
    expect(await createTokenService(SECRET, new ManualClock(new Date(at.getTime() + 60_000))).verify(other)).toBeNull();
  });

  it('refuses a changed payload, another key, another algorithm, no signature and garbage', async () => {
    const token = await tokens.issue(42);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '1' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await createTokenService(`${SECRET}x`, new ManualClock(at)).verify(token)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await tokens.verify(`${none}.${payload}.`)).toBeNull();
    expect(await tokens.verify(`${header}.${payload}`)).toBeNull();
    const hs512 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('42')
      .setExpirationTime('1h')
      .sign(key);
    expect(await tokens.verify(hs512)).toBeNull();
    for (const junk of ['', 'a.b.c', '...', '한글.토큰.값', `${token}x`]) expect(await tokens.verify(junk)).toBeNull();
  });

  it('refuses an expired token and a subject that is not a positive customer id', async () => {
    const token = await tokens.issue(42);
    const later = createTokenService(SECRET, new ManualClock(new Date(at.getTime() + TOKEN_TTL_SECONDS * 1000)));
    expect(await later.verify(token)).toBeNull();
    const iat = Math.floor(at.getTime() / 1000);
    for (const sub of ['0', '-3', '1.5', 'abc', '9007199254740993']) {
      const odd = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setExpirationTime(iat + 60)
        .sign(key);
      expect(await tokens.verify(odd)).toBeNull();
    }
  });
});
