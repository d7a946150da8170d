import type { AdviceReport, ScoreReport, SpendingAnalysis } from '@ohgood/contract/report';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../shared/auth-token';
import { idleMomentsByHand } from '../../test/idle-moments';
import { DashboardPage } from './dashboard-page';

const score: ScoreReport = {
  ohgoodScore: 838,
  message: '김오굿님, 아주 훌륭해요!',
  band: 'A',
  factors: [
    {
      key: 'gradePoint',
      label: '등급 점수',
      contribution: 98,
      detail: '등급 점수 0 / 150',
      tip: '기한 안에 납부해요.',
    },
    { key: 'amount12m', label: '최근 12개월 이용 금액', contribution: 22.4, detail: '이용 금액 0원', tip: '꾸준히.' },
    { key: 'suspended', label: '연체로 인한 이용 정지', contribution: 0, detail: '정상 이용 중', tip: '납부해요.' },
  ],
};

const analysis = (monthly: SpendingAnalysis['monthly']): SpendingAnalysis => ({
  period: '9월 ~ 11월',
  months: ['2026-09', '2026-10', '2026-11'],
  monthly,
  monthlyMap: monthly,
  selectedMonth: '2026-11',
});
const empty = { totalSpend: 0, categories: [] };

const advice: AdviceReport = {
  advices: [
    {
      id: 'due-soon-2026-10',
      title: '납부일이 3일 남았어요 (D-3)',
      body: '10월 청구서 41,500원의 납부 기한은 11월 15일(D-3)이에요.',
      level: 'HIGH',
      tags: ['납부'],
      refs: [{ label: '납부하기', path: '/payment' }],
    },
    { id: 'points', title: '1,250P를 쓸 수 있어요', body: '보유 포인트 1,250P', level: 'LOW', tags: [], refs: [] },
  ],
  meta: { generatedAt: '2026-11-12T12:00:00+09:00', month: '2026-11', source: 'rules', count: 2 },
};

let spending: SpendingAnalysis;
let failing: Set<string>;
const calls: string[] = [];

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  setToken('token');
  failing = new Set();
  calls.length = 0;
  spending = analysis({
    '2026-09': { totalSpend: 4_000, categories: [{ name: '기타', amount: 4_000, percentage: 100, rank: 1 }] },
    '2026-10': empty,
    '2026-11': {
      totalSpend: 30_000,
      categories: [
        { name: '식비', amount: 15_000, percentage: 50, rank: 1 },
        { name: '생활', amount: 15_000, percentage: 50, rank: 1 },
      ],
    },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      if (failing.has(url)) return reply({ success: false, code: 'INTERNAL', message: '서버 오류' }, 500);
      const data = url.endsWith('saymyname') ? score : url.endsWith('analyze') ? spending : advice;
      return reply({ success: true, message: 'OK', data });
    }),
  );
});

function renderPage(thisMonth?: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DashboardPage thisMonth={thisMonth} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// The cards below the fold mount a moment after the page (BelowFold): wait for a card to be there.
const card = (name: string) => screen.findByRole('region', { name });

describe('/dashboard', () => {
  it('asks for all three and shows score, reasons, bars and advice', async () => {
    renderPage();
    // The score's call goes out with the page; the lower cards' in the first idle moments after it.
    expect(calls).toEqual(['/api/dash/saymyname']);
    await waitFor(() =>
      expect([...calls].sort()).toEqual(['/api/dash/advice', '/api/dash/analyze', '/api/dash/saymyname']),
    );
    expect(await screen.findByRole('img', { name: '오굿 점수 1000점 만점에 838점, A등급' })).toBeInTheDocument();
    // What costs points, in whole points; what keeps the score up is listed too.
    const reasons = within(await screen.findByTestId('score-factors')).getAllByRole('listitem');
    expect(reasons.map((li) => li.textContent)).toEqual([
      expect.stringContaining('등급 점수−98점'),
      expect.stringContaining('최근 12개월 이용 금액−22점'),
    ]);
    const helps = within(screen.getByTestId('score-helps')).getAllByRole('listitem');
    expect(helps.map((li) => li.textContent)).toEqual([expect.stringContaining('연체로 인한 이용 정지좋아요')]);
    expect(await screen.findByRole('button', { name: '2026년 11월 소비 30,000원' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByTestId('bar-2026-09')).toHaveTextContent('4천원');
    expect(screen.getByTestId('bar-2026-11')).toHaveTextContent('3만원');
    expect(screen.getByTestId('spending-total')).toHaveTextContent('2026년 11월 총 소비 30,000원');
    // Equal amounts share rank 1.
    expect(within(screen.getByTestId('category-list')).getAllByText('1')).toHaveLength(2);
    expect(await screen.findAllByTestId('advice-slide')).toHaveLength(2);
    expect(screen.getByRole('link', { name: '납부하기' })).toHaveAttribute('href', '/payment');
    expect(screen.getByRole('button', { name: '1번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
  });

  it('shows the gauge with the answer and the reasons after it, in an idle moment', async () => {
    const idle = idleMomentsByHand();
    try {
      renderPage();
      expect(await screen.findByRole('img', { name: '오굿 점수 1000점 만점에 838점, A등급' })).toBeInTheDocument();
      expect(screen.getByTestId('score-message')).toHaveTextContent('김오굿님, 아주 훌륭해요!');
      expect(screen.queryByTestId('score-factors')).toBeNull();
      expect(screen.getByRole('region', { name: '오굿 점수' })).toHaveAttribute('aria-busy', 'true');
      // One job per idle moment, in the order queued: the lower cards' mounts were queued before the reasons.
      for (let moment = 0; moment < 5 && !screen.queryByTestId('score-factors'); moment++) {
        await idle.next();
      }
      expect(screen.getByTestId('score-factors')).toBeInTheDocument();
      expect(screen.getByRole('region', { name: '오굿 점수' })).toHaveAttribute('aria-busy', 'false');
    } finally {
      await idle.release();
    }
  });

  it('mounts this month’s card under the score after the first screen, not with it', async () => {
    renderPage(<section aria-label="이번 달 카드" />);
    // Below the fold on a phone: first an empty block of its height, then the card in an idle moment.
    expect(screen.queryByRole('region', { name: '이번 달 카드' })).toBeNull();
    expect(await card('이번 달 카드')).toBeInTheDocument();
  });

  it('switches the month by its bar, with the month’s own empty text', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('bar-2026-09'));
    expect(screen.getByTestId('spending-total')).toHaveTextContent('2026년 9월 총 소비 4,000원');
    expect(within(screen.getByTestId('category-list')).getByText('기타')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bar-2026-10'));
    expect(screen.getByText('해당 월의 소비 데이터가 없습니다.')).toBeInTheDocument();
    expect(screen.queryByTestId('category-list')).not.toBeInTheDocument();
  });

  it('says there is no spending data when every month is empty', async () => {
    spending = analysis({ '2026-09': empty, '2026-10': empty, '2026-11': empty });
    renderPage();
    expect(await within(await card('소비 패턴 분석')).findByText('소비 데이터가 없습니다.')).toBeInTheDocument();
  });

  it('fails card by card, with the failure text and a retry that refetches only that card', async () => {
    failing = new Set(['/api/dash/saymyname', '/api/dash/analyze', '/api/dash/advice']);
    renderPage();
    for (const name of ['오굿 점수', '소비 패턴 분석', 'AI 조언']) {
      expect(await within(await card(name)).findByRole('alert')).toHaveTextContent(
        '데이터 로드 실패: 잠시 후에 다시 시도해주세요.',
      );
    }
    expect(screen.getByRole('img', { name: '오굿 점수를 불러오지 못했어요' })).toHaveTextContent('?');

    failing.delete('/api/dash/analyze');
    calls.length = 0;
    fireEvent.click(within(await card('소비 패턴 분석')).getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByTestId('spending-total')).toBeInTheDocument();
    expect(calls).toEqual(['/api/dash/analyze']);
    // The others still show their own failure.
    expect(within(await card('오굿 점수')).getByRole('alert')).toBeInTheDocument();
    expect(within(await card('AI 조언')).getByRole('alert')).toBeInTheDocument();
  });

  it('moves through the advice with the arrow keys and the dots', async () => {
    renderPage();
    const carousel = await screen.findByRole('region', { name: '맞춤 조언 목록' });
    fireEvent.keyDown(carousel, { key: 'ArrowRight' });
    expect(screen.getByRole('button', { name: '2번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
    fireEvent.keyDown(carousel, { key: 'ArrowRight' }); // already the last one
    expect(screen.getByRole('button', { name: '2번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
    fireEvent.click(screen.getByRole('button', { name: '1번째 조언 보기' }));
    expect(screen.getByRole('button', { name: '1번째 조언 보기' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: '2번째 조언 보기' })).not.toHaveAttribute('aria-current');
  });

  it('loads another window when asked, keeping the card', async () => {
    renderPage();
    await screen.findByTestId('spending-total');
    fireEvent.click(screen.getByRole('button', { name: '6개월' }));
    await waitFor(() => expect(calls.filter((url) => url.endsWith('analyze'))).toHaveLength(2));
    expect(screen.getByRole('button', { name: '6개월' })).toHaveAttribute('aria-pressed', 'true');
  });
});
