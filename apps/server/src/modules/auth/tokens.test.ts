import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { CacheHome } from '../../lib/cache-home';
import { ManualClock } from '../../lib/clock';
import { createTokenService, type GenuineToken, TOKEN_TTL_SECONDS } from './tokens';

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

  describe('with their signatures remembered (ADR 0256)', () => {
    const remembering = () => {
      const home = new CacheHome();
      const genuine = home.define<string, GenuineToken>({ name: 'genuine-tokens', max: 100, droppedBy: {} });
      const clock = new ManualClock(at);
      const revokedAt = new Map<number, number>();
      const revoked = (id: number, issuedAt: number) => issuedAt <= (revokedAt.get(id) ?? -1);
      const stats = () => home.stats()[0] as { hits: number; size: number };
      return { tokens: createTokenService(SECRET, clock, revoked, genuine), clock, revokedAt, stats };
    };

    it('checks a signature once, and still judges expiry and revocation on every use', async () => {
      const { tokens: t, clock, revokedAt, stats } = remembering();
      const token = await t.issue(42);
      const other = await t.issue(43);
      expect(await t.verify(token)).toBe(42);
      expect(await t.verify(token)).toBe(42);
      expect(stats()).toMatchObject({ hits: 1, size: 1 });
      revokedAt.set(42, Math.floor(at.getTime() / 1000));
      expect(await t.verify(token)).toBeNull();
      expect(await t.verify(other)).toBe(43);
      clock.advance(TOKEN_TTL_SECONDS * 1000);
      expect(await t.verify(other)).toBeNull();
      expect(stats().hits).toBe(3);
    });

    it('keeps no token it refused: forged, garbled, of another key or for nobody', async () => {
      const { tokens: t, stats } = remembering();
      const token = await t.issue(42);
      const [header, payload] = token.split('.') as [string, string, string];
      const foreign = await createTokenService(`${SECRET}x`, new ManualClock(at)).issue(42);
      const nobody = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('0')
        .setExpirationTime(Math.floor(at.getTime() / 1000) + 60)
        .sign(key);
      for (const refused of [`${header}.${payload}.AAAA`, 'a.b.c', foreign, nobody]) {
        expect(await t.verify(refused)).toBeNull();
        expect(await t.verify(refused)).toBeNull();
      }
      expect(stats()).toMatchObject({ hits: 0, size: 0 });
      // The genuine token beside them is still accepted.
      expect(await t.verify(token)).toBe(42);
    });
  });
});
