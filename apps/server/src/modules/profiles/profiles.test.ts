import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { bearer, createHarness, type Harness } from '../../test/harness';
import { multipart } from '../../test/media';
import { insertShorts } from '../../test/shorts-fixture';

let h: Harness;
let work: string;
let media: string;
let creator: { token: string; customerId: number; emailId: string };
let viewer: { token: string; customerId: number; emailId: string };
let png: string;
let jpeg: string;

const LEGAL_NAME = '김비밀실명';
const ACCOUNT = '99887766554433';

const get = (url: string, token?: string) => h.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

async function edit(token: string, fields: Record<string, string>, image?: { path: string; type: string }) {
  const body = await multipart(
    fields,
    image ? { profileImg: { path: image.path, filename: 'photo.png', type: image.type } } : {},
  );
  return h.app.inject({
    method: 'POST',
    url: '/api/shorts/profile/edit',
    headers: { ...body.headers, ...bearer(token) },
    payload: body.payload,
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ohgood-profile-test-'));
  media = join(work, 'media');
  h = await createHarness({ config: { MEDIA_DIR: media } });
  [creator, viewer] = await Promise.all([h.signUp({ name: LEGAL_NAME, account: ACCOUNT }), h.signUp()]);
  png = join(work, 'photo.png');
  jpeg = join(work, 'photo.jpg');
  await sharp({ create: { width: 640, height: 400, channels: 3, background: '#3366ff' } })
    .png()
    .toFile(png);
  await sharp({ create: { width: 300, height: 900, channels: 3, background: '#ff6633' } })
    .jpeg()
    .toFile(jpeg);
  const base = Date.parse('2026-11-01T00:00:00Z');
  await insertShorts(
    h.database.db,
    creator.customerId,
    Array.from({ length: 14 }, (_, i) => ({
      title: `영상 ${i}`,
      createdAt: new Date(base + i * 60_000),
      likeCount: (i * 7) % 5,
    })),
  );
});
afterAll(async () => {
  await h.close();
  rmSync(work, { recursive: true, force: true });
});

describe('channel profile', () => {
  it("gives a new customer '사용자' + a number as nickname, never the legal name", async () => {
    const [row] = await h.database.db
      .select({ nickname: customers.nickname })
      .from(customers)
      .where(eq(customers.id, creator.customerId));
    expect(row?.nickname).toMatch(/^사용자\d{1,6}$/);
    expect(row?.nickname).not.toContain(LEGAL_NAME);
  });

  it('shows counts, 12 shorts per 0-based page in each sort, and no private data', async () => {
    const res = await get(`/api/shorts/profile?targetId=${creator.customerId}`, viewer.token);
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    expect(p).toMatchObject({ customerId: creator.customerId, videoCount: 14, subscriberCount: 0, hasNext: true });
    expect(p.isSubscribed).toBe('NOT_SUBSCRIBED');
    expect(p.shortsList).toHaveLength(12);
    expect(Object.keys(p.shortsList[0]).sort()).toEqual(['likeCount', 'shortsId', 'thumbnail']);
    for (const secret of [LEGAL_NAME, creator.emailId, ACCOUNT]) expect(res.body).not.toContain(secret);

    const latest = p.shortsList.map((s: { shortsId: number }) => s.shortsId);
    const second = (await get(`/api/shorts/profile?targetId=${creator.customerId}&page=1`, viewer.token)).json().data;
    expect(second.hasNext).toBe(false);
    const all = [...latest, ...second.shortsList.map((s: { shortsId: number }) => s.shortsId)];
    expect(new Set(all).size).toBe(14);
    expect(all).toEqual([...all].sort((a, b) => b - a));

    const oldest = (await get(`/api/shorts/profile?targetId=${creator.customerId}&sortBy=oldest`, viewer.token)).json()
      .data.shortsList;
    expect(oldest[0].shortsId).toBe(Math.min(...all));
    const liked = (await get(`/api/shorts/profile?targetId=${creator.customerId}&sortBy=like`, viewer.token)).json()
      .data.shortsList as { likeCount: number }[];
    expect(liked.map((s) => s.likeCount)).toEqual([...liked.map((s) => s.likeCount)].sort((a, b) => b - a));
  });

  it('is SELF without targetId, SUBSCRIBED after subscribing, and needs a token', async () => {
    expect((await get('/api/shorts/profile', creator.token)).json().data.isSubscribed).toBe('SELF');
    const sub = await h.app.inject({
      method: 'POST',
      url: `/api/shorts/subscribe/${creator.customerId}`,
      headers: bearer(viewer.token),
    });
    expect(sub.statusCode).toBe(200);
    const p = (await get(`/api/shorts/profile?targetId=${creator.customerId}`, viewer.token)).json().data;
    expect(p).toMatchObject({ isSubscribed: 'SUBSCRIBED', subscriberCount: 1 });
    expect((await get(`/api/shorts/profile?targetId=${creator.customerId}`)).statusCode).toBe(401);
    expect((await get('/api/shorts/profile?targetId=999999', viewer.token)).statusCode).toBe(404);
  });
});

describe('profile edit', () => {
  it('validates nickname (1–20 after trimming) and introduction (≤ 100)', async () => {
    const blank = await edit(creator.token, { nickname: '   ', introduce: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('이름을 입력해주세요.');
    expect((await edit(creator.token, { nickname: 'ㄱ'.repeat(21), introduce: '' })).statusCode).toBe(400);
    expect((await edit(creator.token, { nickname: '이름', introduce: 'ㄱ'.repeat(101) })).statusCode).toBe(400);
    const res = await edit(creator.token, { nickname: '  커피요정  ', introduce: '매일 한 잔' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ customerNickname: '커피요정', introduce: '매일 한 잔', profileImg: null });
  });

  it('stores the photo as a 256 px square WebP, then replaces it and removes the old file', async () => {
    const first = await edit(creator.token, { nickname: '커피요정', introduce: '' }, { path: png, type: 'image/png' });
    expect(first.statusCode, first.body).toBe(200);
    const key1 = first.json().data.profileImg as string;
    expect(key1).toMatch(/^avatars\/[0-9a-f]{32}\.webp$/);
    const meta = await sharp(join(media, key1)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });

    // The photo is served as media and appears on the creator's shorts.
    const served = await h.app.inject({ method: 'GET', url: `/media/${key1}` });
    expect(served.statusCode).toBe(200);
    const hit = (await get('/api/public/shorts/search?q=영상')).json().items[0];
    expect(hit.profileImg).toBe(key1);

    const second = await edit(
      creator.token,
      { nickname: '커피요정', introduce: '' },
      { path: jpeg, type: 'image/jpeg' },
    );
    const key2 = second.json().data.profileImg as string;
    expect(key2).not.toBe(key1);
    expect(existsSync(join(media, key2))).toBe(true);
    expect(existsSync(join(media, key1))).toBe(false);

    // Without a new photo the current one stays.
    const third = await edit(creator.token, { nickname: '커피요정2', introduce: '' });
    expect(third.json().data.profileImg).toBe(key2);
    expect(existsSync(join(media, key2))).toBe(true);
  });

  it('checks the image by its bytes and size, keeping the current photo on refusal', async () => {
    const before = (await get('/api/shorts/profile', creator.token)).json().data.profileImg as string;
    const fake = join(work, 'fake.png');
    writeFileSync(fake, 'this is not an image at all');
    const text = await edit(
      creator.token,
      { nickname: '바뀌면안됨', introduce: '' },
      { path: fake, type: 'image/png' },
    );
    expect(text.statusCode).toBe(415);
    const broken = join(work, 'broken.png');
    writeFileSync(broken, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]));
    expect(
      (await edit(creator.token, { nickname: '바뀌면안됨', introduce: '' }, { path: broken, type: 'image/png' }))
        .statusCode,
    ).toBe(415);
    const big = join(work, 'big.png');
    writeFileSync(big, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(5 * 1024 * 1024 + 10)]));
    const tooBig = await edit(
      creator.token,
      { nickname: '바뀌면안됨', introduce: '' },
      { path: big, type: 'image/png' },
    );
    expect(tooBig.statusCode).toBe(413);
    const after = (await get('/api/shorts/profile', creator.token)).json().data;
    expect(after.profileImg).toBe(before);
    expect(after.customerNickname).toBe('커피요정2');
    expect(existsSync(join(media, before))).toBe(true);
  });

  it('edits only the token owner, whatever the form says, and needs a token', async () => {
    const res = await edit(viewer.token, { nickname: '구경꾼', introduce: '', customerId: String(creator.customerId) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customerId).toBe(viewer.customerId);
    expect((await get('/api/shorts/profile', creator.token)).json().data.customerNickname).toBe('커피요정2');
    const body = await multipart({ nickname: '익명', introduce: '' }, {});
    const anonymous = await h.app.inject({
      method: 'POST',
      url: '/api/shorts/profile/edit',
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
