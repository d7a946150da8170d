import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrandFontAtPageChange, loadBrandFontAfterFirstPaint } from './brand-font';
import { notYetWarmed, textByStyle } from './brand-font-warm-up';

type Callback = (entries: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void;

/** A PerformanceObserver whose paint entries the test delivers. */
function fakePaintObserver(supported: string[]) {
  const observers: Array<{ callback: Callback; disconnected: boolean }> = [];
  class FakeObserver {
    static supportedEntryTypes = supported;
    private readonly self: { callback: Callback; disconnected: boolean };
    constructor(callback: Callback) {
      this.self = { callback, disconnected: false };
      observers.push(this.self);
    }
    observe() {}
    disconnect() {
      this.self.disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  const paint = (name: string) => {
    for (const o of observers.filter((x) => !x.disconnected)) {
      o.callback(
        { getEntriesByName: (wanted) => (wanted === name ? [{ name }] : []) },
        {
          disconnect: () => {
            o.disconnected = true;
          },
        },
      );
    }
  };
  return { paint };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('brand-font');
  delete document.documentElement.dataset.brandFont;
});

const brandFontOn = () => document.documentElement.classList.contains('brand-font');

let goTo: (path: string) => void = () => undefined;

/** The app's routes as far as the font cares: the page's path, changed by `goTo`. */
function App() {
  goTo = useNavigate();
  return <BrandFontAtPageChange />;
}

describe('loadBrandFontAfterFirstPaint', () => {
  it('loads the faces once, at the first contentful paint and not before', () => {
    const { paint } = fakePaintObserver(['paint']);
    const load = vi.fn(async () => undefined);
    loadBrandFontAfterFirstPaint(load, async () => undefined);
    paint('first-paint');
    expect(load).not.toHaveBeenCalled();
    paint('first-contentful-paint');
    paint('first-contentful-paint');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads the faces at `load` where the browser has no paint timing', () => {
    fakePaintObserver([]);
    const load = vi.fn(async () => undefined);
    loadBrandFontAfterFirstPaint(load, async () => undefined);
    expect(load).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    window.dispatchEvent(new Event('load'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("is ready once the faces for the page's text have loaded and been laid out, and turns nothing on", async () => {
    const { paint } = fakePaintObserver(['paint']);
    document.body.innerHTML = '<p>체험용 계정</p>';
    let facesLoaded = (_faces: unknown[]) => {};
    const faces = new Promise<unknown[]>((resolve) => (facesLoaded = resolve));
    const fontsLoad = vi.fn(() => faces);
    Object.defineProperty(document, 'fonts', { value: { load: fontsLoad }, configurable: true });
    loadBrandFontAfterFirstPaint(async () => undefined);
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(fontsLoad).toHaveBeenCalledWith('1em "Pretendard Variable"', '체험용 계정'));
    expect(document.documentElement.dataset.brandFont).toBeUndefined();
    facesLoaded([]);
    // Warmed in idle moments (each at most a second away).
    await vi.waitFor(() => expect(document.documentElement.dataset.brandFont).toBe('ready'), 3000);
    // The page being read keeps its font: text that moves under the reader's eyes is a layout shift.
    expect(brandFontOn()).toBe(false);
  });

  it('lays the text out in the brand font off screen, style by style, before the switch, and leaves no trace', async () => {
    const { paint } = fakePaintObserver(['paint']);
    const long = '이번 달 결제 내역과 다음 달 납부 예정 금액을 확인하세요. '.repeat(6).trim();
    document.body.innerHTML = `<h1 style="font-weight: 700; font-size: 20px">납부하기</h1><p style="font-size: 14px">${long}</p>`;
    Object.defineProperty(document, 'fonts', { value: { load: async () => [] }, configurable: true });
    const warmed: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLSpanElement) warmed.push(`${node.style.font} | ${node.dataset.text}`);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    loadBrandFontAfterFirstPaint(async () => undefined);
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(document.documentElement.dataset.brandFont).toBe('ready'), 5000);
    observer.disconnect();
    // A style's first step is a few characters: the font's first use at a weight costs a layout whatever the
    // text, and no more text is shaped in that step. The rest follows in steps of at most 100 characters.
    const steps = (font: string) =>
      warmed
        .filter((step) => step.startsWith(`${font} "Pretendard Variable" | `))
        .map((step) => step.slice(step.indexOf(' | ') + 3));
    expect(steps('700 20px')).toEqual(['납부하기']);
    const paragraph = steps('14px');
    expect(paragraph.join('')).toBe(long);
    expect(paragraph[0]).toBe(long.slice(0, 4));
    expect(paragraph.length).toBe(1 + Math.ceil((long.length - 4) / 100));
    expect(Math.max(...paragraph.map((step) => step.length))).toBe(100);
    expect(warmed).toHaveLength(1 + paragraph.length);
    expect(document.querySelector('[data-brand-font-warm-up]')).toBeNull();
  });
});

describe('BrandFontAtPageChange', () => {
  it('turns the brand font on at the first change of page after the faces are ready, and not before', () => {
    render(
      <MemoryRouter initialEntries={['/login']}>
        <App />
      </MemoryRouter>,
    );
    // A change of page before the faces are ready leaves the phone's font.
    act(() => goTo('/register'));
    expect(brandFontOn()).toBe(false);
    document.documentElement.dataset.brandFont = 'ready';
    // Ready, but the page being read does not change under the reader.
    expect(brandFontOn()).toBe(false);
    act(() => goTo('/login'));
    expect(brandFontOn()).toBe(true);
    expect(document.documentElement.dataset.brandFont).toBe('on');
  });

  it('switches in the commit that shows the new page, before its frame is painted', () => {
    let onWhenShown: boolean | undefined;
    function NewPage() {
      // A passive effect of the new page runs after every layout effect of its commit, and before the passive
      // effects of the components after it (the switch comes after it here): the font is on here only if it
      // was turned on in that commit's layout phase, i.e. the page and the font are laid out together, once,
      // before the frame is painted.
      useEffect(() => {
        onWhenShown = brandFontOn();
      }, []);
      return null;
    }
    function Pages() {
      goTo = useNavigate();
      return (
        <>
          {useLocation().pathname === '/payment' ? <NewPage /> : null}
          <BrandFontAtPageChange />
        </>
      );
    }
    document.documentElement.dataset.brandFont = 'ready';
    render(
      <MemoryRouter initialEntries={['/']}>
        <Pages />
      </MemoryRouter>,
    );
    act(() => goTo('/payment'));
    expect(onWhenShown).toBe(true);
  });
});

describe('textByStyle and notYetWarmed', () => {
  it("groups the page's text by weight and size", () => {
    document.body.innerHTML =
      '<p style="font-weight: 700; font-size: 20px">이용 <b style="font-weight: 400; font-size: 20px">가능</b></p><span style="font-weight: 700; font-size: 20px">금액</span>';
    expect([...textByStyle(document.body)]).toEqual([
      ['700 20px', '이용 금액'],
      ['400 20px', '가능'],
    ]);
  });

  it('gives a new style its whole text, a known style only its new characters, and nothing twice', () => {
    const warmed = new Map<string, Set<string>>();
    expect([...notYetWarmed(new Map([['700 20px', '납부 예정']]), warmed)]).toEqual([['700 20px', '납부 예정']]);
    expect([...notYetWarmed(new Map([['700 20px', '납부 예정 금액']]), warmed)]).toEqual([['700 20px', '금액']]);
    expect(notYetWarmed(new Map([['700 20px', '예정 금액']]), warmed).size).toBe(0);
    expect([...notYetWarmed(new Map([['400 14px', '예정']]), warmed)]).toEqual([['400 14px', '예정']]);
  });
});
