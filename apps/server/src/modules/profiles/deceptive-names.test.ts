import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { multipart } from '../../test/media';
import { asOwner } from '../../test/test-database';

/*
 * Names that deceive: a right-to-left override makes '\u202Egnp.exe' display as 'exe.png', zero-width
 * characters make two different names look the same, and full-width or upper-case letters let a
 * newcomer pass for a known creator.
 */
let h: Harness;
let alice: { token: string; customerId: number };
let bob: { token: string; customerId: number };

beforeAll(async () => {
  h = await createHarness();
  [alice, bob] = await Promise.all([h.signUp(), h.signUp()]);
});
afterAll(() => h.close());

async function editNickname(token: string, nickname: string, introduce = '') {
  const body = await multipart({ nickname, introduce }, {});
  return h.app.inject({
    method: 'POST',
    url: '/api/shorts/profile/edit',
    headers: { ...body.headers, ...bearer(token) },
    payload: body.payload,
  });
}

const HOSTILE = ['\u202Egnp.exe', '커피\u200B요정', 'a\u2066b\u2069', '\u3164', 'x\uFEFF', 'soft\u00ADhyphen'];

describe('invisible and bidi-control characters', () => {
  it('are refused in nicknames and introductions with a clear Korean message', async () => {
    for (const nickname of HOSTILE) {
      const res = await editNickname(alice.token, nickname);
      expect(res.statusCode, JSON.stringify(nickname)).toBe(400);
      expect(res.json(), JSON.stringify(nickname)).toMatchObject({
        code: 'PROFILE_INVALID',
        message: '보이지 않는 문자나 방향 제어 문자는 쓸 수 없습니다.',
      });
    }
    expect((await editNickname(alice.token, '정상이름', '소개\u202E')).statusCode).toBe(400);
  });

  it('are refused in sign-up names, comments and short titles', async () => {
    const register = await h.app.inject({
      method: 'POST',
      url: '/api/public/register',
      payload: {
        name: '\u202Egnp.exe',
        emailId: `bidi-${Date.now()}@example.com`,
        pwd: 'password1!',
        birth: '1990-01-01',
        account: '12345678901',
        accountName: '국민',
      },
    });
    expect(register.statusCode).toBe(400);
    const upload = await multipart(
      { title: '\u202Egnp.exe', content: '설명' },
      { video: { path: import.meta.filename, filename: 'clip.mp4', type: 'video/mp4' } },
    );
    const uploaded = await h.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...upload.headers, ...bearer(alice.token) },
      payload: upload.payload,
    });
    expect(uploaded.statusCode).toBe(400);
    // Comment bodies are validated before the short is even looked up.
    const comment = await h.app.inject({
      method: 'POST',
      url: '/api/shorts/feeds/1/comments',
      headers: bearer(alice.token),
      payload: { content: '좋아요\u202E' },
    });
    expect(comment.statusCode).toBe(400);
  });
});

it('stores names composed (NFC): a decomposed Hangul name is saved as the same composed text', async () => {
  const decomposed = '\u1112\u1161\u11AB\u1100\u1173\u11AF'; // 한글 as separate jamo
  expect((await editNickname(bob.token, decomposed)).statusCode).toBe(200);
  const [row] = await h.database.db.select().from(customers).where(eq(customers.id, bob.customerId));
  expect(row?.nickname).toBe('한글');
});

describe('nickname uniqueness', () => {
  it('refuses a nickname another creator holds, whatever its letter case or width, and keeps one own name', async () => {
    expect((await editNickname(alice.token, 'CoffeeFairy')).statusCode).toBe(200);
    for (const copy of ['CoffeeFairy', 'coffeefairy', 'COFFEEFAIRY', 'ＣｏｆｆｅｅＦａｉｒｙ']) {
      const res = await editNickname(bob.token, copy);
      expect(res.statusCode, copy).toBe(409);
      expect(res.json(), copy).toEqual({
        success: false,
        code: 'NICKNAME_TAKEN',
        message: '이미 사용 중인 이름입니다. 다른 이름을 입력해주세요.',
      });
    }
    // Saving one's own name again, or in another case, is not a conflict.
    expect((await editNickname(alice.token, 'coffeeFAIRY', '소개만 바꿈')).statusCode).toBe(200);
    // Two sign-ups racing never share a default name either.
    const many = await Promise.all(Array.from({ length: 12 }, () => h.signUp()));
    const rows = await h.database.db
      .select({ nickname: customers.nickname })
      .from(customers)
      .where(sql`${customers.id} in ${many.map((m) => m.customerId)}`);
    expect(new Set(rows.map((r) => r.nickname.toLowerCase())).size).toBe(12);
  });

  it('migration 0030 cleans existing names and renames later duplicates before the unique index', async () => {
    const { db } = h.database;
    // Rewinding a migration is the owner's work: the app's own role may not change the schema.
    await asOwner(h.database, ['drop index customers_nickname_key']);
    // One after another: the migration keeps the oldest account's name, so the order must be known.
    const first = await h.signUp();
    const second = await h.signUp();
    const third = await h.signUp();
    const ids = [first.customerId, second.customerId, third.customerId];
    await db
      .update(customers)
      .set({ nickname: '오굿러버' })
      .where(eq(customers.id, ids[0] as number));
    await db
      .update(customers)
      .set({ nickname: 'ＯＧ러버' })
      .where(eq(customers.id, ids[1] as number));
    await db
      .update(customers)
      .set({ nickname: '오굿\u200B러버\u202E' })
      .where(eq(customers.id, ids[2] as number));
    await db.update(customers).set({ nickname: 'og러버' }).where(eq(customers.id, alice.customerId));
    const migration = readFileSync(
      join(import.meta.dirname, '../../db/migrations/0030_customers_nickname_unique.sql'),
      'utf8',
    );
    await asOwner(h.database, migration.split('--> statement-breakpoint'));

    const names = new Map(
      (await db.select({ id: customers.id, nickname: customers.nickname }).from(customers)).map((r) => [
        r.id,
        r.nickname,
      ]),
    );
    // Alice (the oldest 'og러버') keeps hers; the full-width copy gets its id; the invisible marks are gone and
    // the cleaned name, now a duplicate of the first, is renamed too.
    expect(names.get(alice.customerId)).toBe('og러버');
    expect(names.get(ids[1] as number)).toBe(`ＯＧ러버#${ids[1]}`);
    expect(names.get(ids[0] as number)).toBe('오굿러버');
    expect(names.get(ids[2] as number)).toBe(`오굿러버#${ids[2]}`);
  });
});
