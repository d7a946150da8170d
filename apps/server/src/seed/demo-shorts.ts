import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, shortComments, shortReactions, shorts } from '../db/schema';
import type { Clock } from '../lib/clock';
import { type Config, loadConfig } from '../lib/config';
import { makeWorkDir, workRoot } from '../lib/work-dir';
import { clipArgs } from '../modules/media/clip-recipe';
import { type MediaTools, resolveMediaTools, runTool } from '../modules/media/ffmpeg';
import { createStorage, type MediaStorage } from '../modules/media/storage';
import { ensureDemoCustomer } from './demo-customer';
import { freeNickname } from './free-nickname';

/** Creators of the demo feed (they cannot log in: their passwords are random). */
const CREATORS = [
  { email: 'creator1@ohgood.kr', nickname: '커피요정', introduce: '매일 한 잔의 기록' },
  { email: 'creator2@ohgood.kr', nickname: '산책하는곰', introduce: '동네 산책 브이로그' },
  { email: 'creator3@ohgood.kr', nickname: '요리왕오굿', introduce: '5분 요리' },
] as const;

/** Vertical clips, 5–15 s. `creator` -1 is the demo customer. */
const CLIPS = [
  {
    creator: 0,
    seconds: 6,
    color: '0xff6b3d',
    caption: '아침 커피 한 잔',
    title: '오늘의 라떼아트',
    content: '하트 성공했어요 #커피 #라떼',
  },
  {
    creator: 1,
    seconds: 8,
    color: '0x2bb673',
    caption: '공원 산책',
    title: '가을 공원 산책',
    content: '낙엽 밟는 소리 #산책 #가을',
  },
  {
    creator: 2,
    seconds: 5,
    color: '0xf5b700',
    caption: '5분 계란말이',
    title: '초간단 계란말이',
    content: '자취생 필수 레시피 #요리',
  },
  {
    creator: -1,
    seconds: 7,
    color: '0x3d7bff',
    caption: '오굿페이로 결제',
    title: 'QR 결제 해봤어요',
    content: '편의점에서 오굿페이로 결제 완료!',
  },
  {
    creator: 0,
    seconds: 10,
    color: '0x8e44ad',
    caption: '원두 고르기',
    title: '원두 고르는 법',
    content: '산미 vs 고소함 #커피',
  },
  {
    creator: 1,
    seconds: 12,
    color: '0x16a085',
    caption: '한강 노을',
    title: '한강 노을 타임랩스',
    content: '오늘 노을 진짜 예뻤다',
  },
  {
    creator: 2,
    seconds: 9,
    color: '0xd35400',
    caption: '떡볶이 만들기',
    title: '국물 떡볶이',
    content: '맵기 조절 팁 #요리 #떡볶이',
  },
  {
    creator: -1,
    seconds: 15,
    color: '0xc0392b',
    caption: '포인트 모으기',
    title: '쇼츠 보고 포인트 받기',
    content: '영상 보면 포인트가 쌓여요 #오굿페이',
  },
  {
    creator: 1,
    seconds: 5,
    color: '0x34495e',
    caption: '비 오는 날',
    title: '빗소리 ASMR',
    content: '창밖 빗소리 들으며 휴식',
  },
] as const;

const COMMENTS = ['너무 좋아요!', '저도 해볼래요', '우와 대박', '구독하고 갑니다', '다음 영상도 기대돼요'];

/**
 * Captions use Pretendard from the npm registry (the web app's font), not a system font: a bare machine has
 * no Hangul font, and the same font everywhere renders the same demo clips.
 */
function koreanFont(): string | null {
  try {
    return createRequire(import.meta.url).resolve('pretendard/dist/public/static/Pretendard-SemiBold.otf');
  } catch {
    return null;
  }
}

async function renderClip(
  tools: MediaTools,
  work: string,
  index: number,
  clip: (typeof CLIPS)[number],
  font: string | null,
): Promise<{ video: string; poster: string }> {
  const video = join(work, `clip-${index}.mp4`);
  const poster = join(work, `clip-${index}.jpg`);
  const filters = [`hue=H=2*PI*t/${clip.seconds}`];
  if (font) {
    const textFile = join(work, `caption-${index}.txt`);
    await writeFile(textFile, clip.caption);
    const esc = (p: string) => p.replace(/\\/g, '/').replace(/:/g, '\\:');
    filters.push(
      `drawtext=fontfile=${esc(font)}:textfile=${esc(textFile)}:fontcolor=white:fontsize=34:box=1:boxcolor=black@0.35:boxborderw=14:x=(w-text_w)/2:y=h*0.42`,
      `drawtext=fontfile=${esc(font)}:text='%{eif\\:t+1\\:d}':fontcolor=white@0.8:fontsize=64:x=(w-text_w)/2:y=h*0.55`,
    );
  }
  await runTool(tools.ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...clipArgs(
      {
        picture: `color=c=${clip.color}:s=360x640:r=24`,
        seconds: clip.seconds,
        toneHz: 220 + index * 55,
        filters,
        output: ['-b:v', '250k', '-b:a', '48k', '-af', 'volume=0.15', '-movflags', '+faststart'],
      },
      video,
    ),
  ]);
  await runTool(tools.ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    video,
    '-frames:v',
    '1',
    '-q:v',
    '5',
    poster,
  ]);
  return { video, poster };
}

async function ensureCreators(db: Db, at: Date): Promise<number[]> {
  const existing = await db
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(
      inArray(
        customers.email,
        CREATORS.map((c) => c.email),
      ),
    );
  const ids: number[] = [];
  for (const creator of CREATORS) {
    const found = existing.find((row) => row.email === creator.email);
    if (found) {
      ids.push(found.id);
      continue;
    }
    const [row] = await db
      .insert(customers)
      .values({
        email: creator.email,
        passwordHash: await hash(randomBytes(24).toString('hex')),
        name: creator.nickname,
        birth: '1995-01-01',
        account: '1000000000',
        accountName: '국민',
        nickname: await freeNickname(db, creator.nickname),
        introduce: creator.introduce,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: customers.id });
    if (row) ids.push(row.id);
  }
  return ids;
}

/**
 * Demo shorts for a live feed on first start: tiny vertical clips rendered by ffmpeg into the
 * media storage, with likes and comments. Idempotent: existing clips are kept; a clip whose file went
 * missing is rendered again.
 */
export async function seedDemoShorts(
  db: Db,
  clock: Clock,
  config: Config = loadConfig(),
  storage: MediaStorage = createStorage(config),
): Promise<void> {
  // Probing ffmpeg and fonts costs processes: only when a clip must be rendered (not on every restart).
  let renderer: { tools: MediaTools; font: string | null } | undefined;
  const clips = CLIPS.map((clip, index) => {
    const videoKey = `demo/short-${String(index + 1).padStart(2, '0')}.mp4`;
    return { clip, index, videoKey, thumbnailKey: videoKey.replace(/\.mp4$/, '.jpg') };
  });
  // What is there already, in one query and the files' checks side by side: a restart usually finds
  // everything, and then this is all it does.
  const rows = await db
    .select({ videoKey: shorts.videoKey })
    .from(shorts)
    .where(
      inArray(
        shorts.videoKey,
        clips.map((c) => c.videoKey),
      ),
    );
  const withRow = new Set(rows.map((row) => row.videoKey));
  const withFiles = await Promise.all(
    clips.map(async (c) => (await storage.size(c.videoKey)) !== null && (await storage.size(c.thumbnailKey)) !== null),
  );
  const pending = clips.filter((c, i) => !(withRow.has(c.videoKey) && withFiles[i]));
  if (pending.length === 0) return;
  const demoId = await ensureDemoCustomer(db, clock.now());
  const creatorIds = await ensureCreators(db, clock.now());
  const everyone = [demoId, ...creatorIds];
  const work = await makeWorkDir(workRoot(config.DATA_DIR), 'seed-');
  const now = clock.now().getTime();
  try {
    const runOne = async ({ clip, index, videoKey, thumbnailKey }: (typeof pending)[number]) => {
      const hasRow = withRow.has(videoKey);
      renderer ??= { tools: resolveMediaTools(config), font: koreanFont() };
      const rendered = await renderClip(renderer.tools, work, index, clip, renderer.font);
      await storage.putFile(videoKey, rendered.video, 'video/mp4');
      await storage.putFile(thumbnailKey, rendered.poster, 'image/jpeg');
      if (hasRow) return;
      const ownerId = clip.creator === -1 ? demoId : (creatorIds[clip.creator] ?? demoId);
      const likers = everyone.filter((id) => id !== ownerId).slice(0, (index * 7) % 4);
      const createdAt = new Date(now - (index * 7 + 1) * 3600_000);
      await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(shorts)
          .values({
            customerId: ownerId,
            title: clip.title,
            content: clip.content,
            videoKey,
            thumbnailKey,
            durationMs: clip.seconds * 1000,
            width: 360,
            height: 640,
            status: 'READY',
            likeCount: likers.length,
            createdAt,
          })
          .returning({ id: shorts.id });
        if (!inserted) return;
        if (likers.length > 0) {
          await tx
            .insert(shortReactions)
            .values(likers.map((customerId) => ({ shortId: inserted.id, customerId, type: 'like', createdAt })));
        }
        const commenters = everyone.filter((id) => id !== ownerId).slice(0, index % 3);
        let first: number | null = null;
        for (const [n, customerId] of commenters.entries()) {
          const [c] = await tx
            .insert(shortComments)
            .values({
              shortId: inserted.id,
              customerId,
              content: COMMENTS[(index + n) % COMMENTS.length] as string,
              createdAt: new Date(createdAt.getTime() + (n + 1) * 600_000),
            })
            .returning({ id: shortComments.id });
          first ??= c?.id ?? null;
        }
        let count = commenters.length;
        if (first !== null) {
          await tx.insert(shortComments).values({
            shortId: inserted.id,
            customerId: ownerId,
            parentId: first,
            content: '감사합니다 😊',
            createdAt: new Date(createdAt.getTime() + 3600_000),
          });
          count += 1;
        }
        await tx
          .update(shorts)
          .set({ commentCount: count })
          .where(and(eq(shorts.id, inserted.id)));
      });
    };
    // Two renders at a time: quick on a small machine without starving the server.
    const queue = [...pending];
    await Promise.all(
      [0, 1].map(async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          // Demo media is a nicety: without a working ffmpeg the server still starts, with fewer demo shorts.
          await runOne(next).catch((error: unknown) =>
            console.warn(`demo short ${next?.index} skipped: ${error instanceof Error ? error.message : error}`),
          );
        }
      }),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
