import { CHAT_MSG } from '@ohgood/contract/chat-rules';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../../../shared/auth-token';
import ChatPage from './chat-page';

/* The page against a scripted fetch: failures become bot messages, never alerts or a crash. */

let answers: Array<() => Response | Promise<Response>>;
const calls: Array<{ url: string; body: unknown }> = [];

beforeEach(() => {
  setToken('token');
  calls.length = 0;
  answers = [];
  // Reduced motion: the bot's text appears at once, so the test waits only for the thinking delays.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
      if (url === '/chat/clear-session') {
        return new Response(JSON.stringify({ success: true, message: 'OK', data: { sessionId: 'x', cleared: true } }));
      }
      const next = answers.shift();
      if (!next) throw new TypeError('no scripted answer');
      return next();
    }),
  );
  window.alert = vi.fn();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  clearToken();
  vi.unstubAllGlobals();
});

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/chat']}>
        <ChatPage onCheckin={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('chat page', () => {
  it('greets with the init options, and shows the failures as bot messages', async () => {
    renderPage();
    expect(await screen.findByRole('button', { name: '기분에 따른 추천' })).toBeEnabled();
    expect(screen.getAllByText(CHAT_MSG.greeting.split('\n')[0] as string, { exact: false }).length).toBeGreaterThan(0);

    answers.push(
      () => new Response(JSON.stringify({ success: false, code: 'INTERNAL_ERROR', message: 'x' }), { status: 500 }),
    );
    fireEvent.click(screen.getByRole('button', { name: '자주하는 질문' }));
    expect((await screen.findAllByText(CHAT_MSG.serverError)).length).toBeGreaterThan(0);
    // The options come back so the conversation goes on.
    expect(await screen.findByRole('button', { name: '자주하는 질문' })).toBeEnabled();

    answers.push(() => {
      throw new TypeError('offline');
    });
    fireEvent.click(screen.getByRole('button', { name: '자주하는 질문' }));
    expect((await screen.findAllByText(CHAT_MSG.temporaryError)).length).toBeGreaterThan(0);
    expect(window.alert).not.toHaveBeenCalled();

    const sent = calls.filter((c) => c.url === '/chat').map((c) => c.body);
    expect(sent[0]).toMatchObject({ inputMessage: '자주하는 질문', flow: 'init' });
    expect((sent[0] as { sessionId: string }).sessionId).toBe(localStorage.getItem('ohgood.chat.sessionId'));
  });

  it('renders a reply: the text with its options, product cards and a quick-menu card', async () => {
    renderPage();
    await screen.findByRole('button', { name: '기분에 따른 추천' });
    answers.push(
      () =>
        new Response(
          JSON.stringify({
            success: true,
            message: 'OK',
            data: {
              message: '골라봤어.\n둘째 줄',
              products: [
                {
                  name: '무선 이어폰',
                  price: 79000,
                  image: '/media/a.svg',
                  url: 'https://e.x/1',
                  category: '음향기기',
                },
              ],
              flow: 'recommendation',
              sessionId: 'x',
              options: ['다른 상품'],
              quickMenu: { menu: 'dashboard', title: '오굿 리포트', path: '/dashboard' },
            },
          }),
        ),
    );
    fireEvent.input(screen.getByLabelText('메시지'), { target: { value: '추천해줘' } });
    fireEvent.keyDown(screen.getByLabelText('메시지'), { key: 'Enter' });
    expect(await screen.findByRole('button', { name: '다른 상품' }, { timeout: 3000 })).toBeEnabled();
    expect(screen.getByText('79,000원')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /상품 보기/ })).toHaveAttribute('href', 'https://e.x/1');
    expect(screen.getByTestId('chat-quick-menu')).toHaveTextContent('오굿 리포트');
  });
});
