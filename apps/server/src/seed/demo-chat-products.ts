import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Hobby, Mood } from '@ohgood/contract/chat-rules';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { chatProducts } from '../db/schema';
import { type Config, loadConfig } from '../lib/config';
import { createStorage, type MediaStorage } from '../modules/media/storage';

/*
 * The mascot's demo catalogue (docs/rules/chat.md#C4, docs/rules/demo-data.md#E3): 65 products, 13 per hobby, each
 * tagged with the moods it suits and priced from 5,000 to 300,000 KRW. Images are simple SVGs drawn here at seed time
 * into the media storage (never committed, never hot-linked).
 */

interface DemoProduct {
  slug: string;
  name: string;
  price: number;
  category: string;
  moods: Mood[];
}

const G: Mood = '좋아';
const S: Mood = '그저그래';
const B: Mood = '안좋아';

export const DEMO_CATALOG: Readonly<Record<Hobby, readonly DemoProduct[]>> = {
  게임: [
    {
      slug: 'game-grip-cap',
      name: '게임패드 아날로그 스틱 캡 8종',
      price: 5_900,
      category: '게임 액세서리',
      moods: [S, B],
    },
    { slug: 'game-mousepad-xl', name: '빅사이즈 게이밍 장패드', price: 12_900, category: '게임 액세서리', moods: [S] },
    {
      slug: 'game-gift-card',
      name: '게임 충전 기프트카드 3만원권',
      price: 30_000,
      category: '디지털 상품',
      moods: [G, S],
    },
    { slug: 'game-party-pack', name: '파티 보드게임 입문 세트', price: 24_800, category: '보드게임', moods: [G] },
    { slug: 'game-wrist-rest', name: '메모리폼 손목 받침대', price: 15_900, category: '게임 액세서리', moods: [B] },
    { slug: 'game-keyboard', name: '텐키리스 기계식 키보드', price: 69_000, category: 'PC 주변기기', moods: [G, S] },
    { slug: 'game-mouse', name: '초경량 무선 게이밍 마우스', price: 59_000, category: 'PC 주변기기', moods: [G] },
    { slug: 'game-headset', name: '7.1 서라운드 게이밍 헤드셋', price: 89_000, category: 'PC 주변기기', moods: [S, B] },
    { slug: 'game-cozy-title', name: '힐링 농장 시뮬레이션 게임', price: 36_000, category: '게임 타이틀', moods: [B] },
    { slug: 'game-racing-title', name: '신나는 카트 레이싱 게임', price: 64_800, category: '게임 타이틀', moods: [G] },
    { slug: 'game-chair-cushion', name: '게이밍 의자 허리 쿠션', price: 29_000, category: '게임 가구', moods: [B, S] },
    { slug: 'game-controller', name: '무선 컨트롤러 프로', price: 89_800, category: '게임기', moods: [G, S] },
    { slug: 'game-handheld', name: '휴대용 게임기 라이트', price: 249_000, category: '게임기', moods: [G, B] },
  ],
  독서: [
    { slug: 'book-bookmark', name: '자개 북마크 2종', price: 5_000, category: '독서 소품', moods: [S] },
    { slug: 'book-essay', name: '위로가 필요한 날의 에세이', price: 15_120, category: '도서', moods: [B] },
    { slug: 'book-novel', name: '올해의 베스트셀러 장편소설', price: 16_200, category: '도서', moods: [G, S] },
    { slug: 'book-poetry', name: '마음을 쓰다듬는 시집', price: 10_800, category: '도서', moods: [B] },
    { slug: 'book-travel', name: '떠나고 싶은 날의 여행 에세이', price: 17_820, category: '도서', moods: [G] },
    { slug: 'book-stand', name: '원목 각도조절 독서대', price: 32_000, category: '독서 소품', moods: [S] },
    { slug: 'book-lamp', name: '눈이 편한 LED 북라이트', price: 21_900, category: '독서 소품', moods: [B, S] },
    { slug: 'book-cover', name: '가죽 북커버', price: 28_000, category: '독서 소품', moods: [G] },
    { slug: 'book-set', name: '고전 문학 10권 세트', price: 98_000, category: '도서', moods: [S, G] },
    { slug: 'book-subscription', name: '전자책 구독 12개월권', price: 119_000, category: '디지털 상품', moods: [G, S] },
    { slug: 'book-blanket', name: '극세사 무릎 담요', price: 19_900, category: '생활 소품', moods: [B] },
    { slug: 'book-ereader', name: '전자잉크 이북리더', price: 189_000, category: '전자기기', moods: [G, B] },
    { slug: 'book-chair', name: '1인 리딩 소파', price: 279_000, category: '가구', moods: [B, S] },
  ],
  음악감상: [
    { slug: 'music-cable', name: '고음질 오디오 케이블', price: 7_900, category: '음향 액세서리', moods: [S] },
    { slug: 'music-lp-cleaner', name: 'LP 클리닝 키트', price: 14_900, category: '음향 액세서리', moods: [S] },
    { slug: 'music-stream', name: '음원 스트리밍 6개월 이용권', price: 47_400, category: '디지털 상품', moods: [G, S] },
    { slug: 'music-lp', name: '재즈 명반 LP', price: 39_000, category: '음반', moods: [B, S] },
    { slug: 'music-album', name: '인기 아이돌 정규 앨범', price: 19_800, category: '음반', moods: [G] },
    { slug: 'music-earbuds', name: '커널형 무선 이어폰', price: 79_000, category: '음향기기', moods: [G, S] },
    { slug: 'music-speaker-mini', name: '방수 미니 블루투스 스피커', price: 45_000, category: '음향기기', moods: [G] },
    { slug: 'music-sleep', name: '수면용 초소형 이어버드', price: 59_000, category: '음향기기', moods: [B] },
    { slug: 'music-ticket', name: '소극장 어쿠스틱 공연 티켓', price: 66_000, category: '공연', moods: [B, G] },
    { slug: 'music-headphone', name: '노이즈캔슬링 헤드폰', price: 229_000, category: '음향기기', moods: [B, S] },
    { slug: 'music-turntable', name: '블루투스 턴테이블', price: 159_000, category: '음향기기', moods: [S, G] },
    { slug: 'music-speaker', name: '북쉘프 스피커 세트', price: 289_000, category: '음향기기', moods: [G] },
    { slug: 'music-kalimba', name: '17음 칼림바', price: 25_900, category: '악기', moods: [B] },
  ],
  운동: [
    { slug: 'fit-band', name: '근력 루프 밴드 5종', price: 8_900, category: '홈트레이닝', moods: [S] },
    { slug: 'fit-bottle', name: '대용량 스포츠 보틀', price: 12_000, category: '운동 소품', moods: [G] },
    { slug: 'fit-roller', name: '근막 이완 폼롤러', price: 18_900, category: '회복', moods: [B] },
    { slug: 'fit-mat', name: '두꺼운 요가 매트', price: 29_000, category: '홈트레이닝', moods: [B, S] },
    { slug: 'fit-rope', name: '스마트 줄넘기', price: 22_000, category: '홈트레이닝', moods: [G] },
    { slug: 'fit-dumbbell', name: '무게조절 덤벨 세트', price: 79_000, category: '홈트레이닝', moods: [G, S] },
    { slug: 'fit-massage-gun', name: '미니 마사지건', price: 69_000, category: '회복', moods: [B] },
    { slug: 'fit-wear', name: '기능성 러닝 웨어 세트', price: 59_000, category: '스포츠 의류', moods: [G] },
    { slug: 'fit-shoes', name: '쿠셔닝 러닝화', price: 129_000, category: '스포츠 신발', moods: [G, S] },
    { slug: 'fit-watch', name: '스마트 피트니스 밴드', price: 49_000, category: '웨어러블', moods: [S] },
    { slug: 'fit-pass', name: '필라테스 1개월 이용권', price: 180_000, category: '이용권', moods: [B, S] },
    { slug: 'fit-bike', name: '접이식 실내 자전거', price: 259_000, category: '홈트레이닝', moods: [S, B] },
    { slug: 'fit-backpack', name: '등산 데이팩 20L', price: 65_000, category: '아웃도어', moods: [G, B] },
  ],
  영화보기: [
    { slug: 'movie-popcorn', name: '전자레인지 팝콘 10봉', price: 6_900, category: '간식', moods: [G, S] },
    { slug: 'movie-ticket', name: '영화 관람권 2매', price: 28_000, category: '관람권', moods: [G] },
    { slug: 'movie-ott', name: 'OTT 3개월 이용권', price: 40_500, category: '디지털 상품', moods: [S, B] },
    { slug: 'movie-cushion', name: '빈백 쿠션 소파', price: 89_000, category: '가구', moods: [B] },
    { slug: 'movie-blanket', name: '포근한 극장 담요', price: 24_900, category: '생활 소품', moods: [B] },
    { slug: 'movie-light', name: '무드 LED 스트립 조명', price: 19_900, category: '인테리어', moods: [S, G] },
    { slug: 'movie-bluray', name: '명작 애니메이션 블루레이', price: 33_000, category: '영상물', moods: [B, S] },
    { slug: 'movie-stand', name: '태블릿 거치대', price: 15_900, category: '액세서리', moods: [S] },
    { slug: 'movie-soundbar', name: '컴팩트 사운드바', price: 149_000, category: '음향기기', moods: [G, S] },
    { slug: 'movie-projector', name: '미니 빔프로젝터', price: 299_000, category: '전자기기', moods: [G, B] },
    { slug: 'movie-screen', name: '80인치 족자형 스크린', price: 54_000, category: '전자기기', moods: [G] },
    { slug: 'movie-goods', name: '영화 포스터 액자', price: 35_000, category: '굿즈', moods: [G] },
    { slug: 'movie-snack-box', name: '극장 간식 박스', price: 9_900, category: '간식', moods: [B, G] },
  ],
};

const HOBBY_HUE: Readonly<Record<Hobby, number>> = { 게임: 265, 독서: 30, 음악감상: 330, 운동: 150, 영화보기: 210 };

/** A shape per hobby (pad, book, note, dumbbell, clapper), drawn in a 200×200 box. */
const ICON: Readonly<Record<Hobby, string>> = {
  게임: '<rect x="40" y="75" width="120" height="60" rx="30"/><circle cx="75" cy="105" r="9" fill="#fff"/><circle cx="125" cy="98" r="6" fill="#fff"/><circle cx="138" cy="112" r="6" fill="#fff"/>',
  독서: '<path d="M100 70 C80 58 55 58 40 64 V140 C55 134 80 134 100 146 C120 134 145 134 160 140 V64 C145 58 120 58 100 70 Z"/><path d="M100 70 V146" stroke="#fff" stroke-width="4"/>',
  음악감상: '<path d="M80 60 L145 48 V125 A18 14 0 1 1 130 112 V75 L95 82 V135 A18 14 0 1 1 80 122 Z"/>',
  운동: '<rect x="30" y="80" width="22" height="40" rx="6"/><rect x="148" y="80" width="22" height="40" rx="6"/><rect x="50" y="70" width="16" height="60" rx="5"/><rect x="134" y="70" width="16" height="60" rx="5"/><rect x="66" y="94" width="68" height="12" rx="4"/>',
  영화보기:
    '<rect x="45" y="80" width="110" height="70" rx="8"/><path d="M45 62 L150 48 L155 68 L50 82 Z"/><path d="M70 58 L80 76 M100 54 L110 72 M130 50 L140 68" stroke="#fff" stroke-width="6"/>',
};

/** Our own product picture: a tinted card with the hobby's shape; the tint varies per product. */
export function productSvg(hobby: Hobby, index: number): string {
  const hue = (HOBBY_HUE[hobby] + index * 11) % 360;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 80% 92%)"/><stop offset="1" stop-color="hsl(${hue} 70% 78%)"/></linearGradient></defs>`,
    '<rect width="200" height="200" rx="24" fill="url(#g)"/>',
    `<circle cx="${40 + ((index * 37) % 120)}" cy="${30 + ((index * 53) % 40)}" r="14" fill="hsl(${hue} 90% 97%)" opacity="0.8"/>`,
    `<g fill="hsl(${hue} 55% 38%)">${ICON[hobby]}</g>`,
    '</svg>',
  ].join('');
}

export const productImageKey = (slug: string) => `chat-products/${slug}.svg`;

/** Products open a shopping search for their name (an example destination; ADR 0026). */
export const productUrl = (name: string) =>
  `https://search.shopping.naver.com/search/all?query=${encodeURIComponent(name)}`;

/** Seeds the catalogue and draws any missing picture. Idempotent: rows are upserted by slug. */
export async function seedChatProducts(
  db: Db,
  config: Config = loadConfig(),
  storage: MediaStorage = createStorage(config),
): Promise<number> {
  const rows = (Object.entries(DEMO_CATALOG) as Array<[Hobby, readonly DemoProduct[]]>).flatMap(([hobby, items]) =>
    items.map((item, index) => ({ ...item, hobby, index })),
  );
  const wanted = rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    price: r.price,
    imageKey: productImageKey(r.slug),
    url: productUrl(r.name),
    category: r.category,
    hobby: r.hobby,
    moods: [...r.moods] as string[],
  }));
  // Only rows that differ are written: a restart finds the catalogue as it is and writes nothing, so it waits
  // for no commit to reach the disk.
  const present = new Map((await db.select().from(chatProducts)).map((row) => [row.slug, row]));
  const same = (row: (typeof wanted)[number]) => {
    const stored = present.get(row.slug);
    return (
      stored !== undefined &&
      Object.entries(row).every(([column, value]) => isDeepStrictEqual(stored[column as keyof typeof stored], value))
    );
  };
  const changed = wanted.filter((row) => !same(row));
  if (changed.length > 0) {
    await db
      .insert(chatProducts)
      .values(changed)
      .onConflictDoUpdate({
        target: chatProducts.slug,
        set: {
          name: sql`excluded.name`,
          price: sql`excluded.price`,
          imageKey: sql`excluded.image_key`,
          url: sql`excluded.url`,
          category: sql`excluded.category`,
          hobby: sql`excluded.hobby`,
          moods: sql`excluded.moods`,
        },
      });
  }
  // Only missing images are drawn: on a restart that is none, and the checks run side by side.
  const stored = await Promise.all(rows.map((r) => storage.size(productImageKey(r.slug))));
  const missing = rows.filter((_, i) => stored[i] === null);
  if (missing.length === 0) return rows.length;
  const work = await mkdtemp(join(tmpdir(), 'ohgood-chat-'));
  try {
    for (const r of missing) {
      const file = join(work, `${r.slug}.svg`);
      await writeFile(file, productSvg(r.hobby, r.index));
      await storage.putFile(productImageKey(r.slug), file, 'image/svg+xml');
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return rows.length;
}
