import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadBrandFontAfterFirstPaint } from './brand-font';
import { notYetWarmed, switchParts, textByStyle } from './brand-font-switch';

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
});

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

  it("switches the page to the brand font in one step, once the faces for the page's text have loaded, when idle", async () => {
    const { paint } = fakePaintObserver(['paint']);
    document.body.innerHTML = '<p>체험용 계정</p>';
    let facesLoaded = (_faces: unknown[]) => {};
    const faces = new Promise<unknown[]>((resolve) => (facesLoaded = resolve));
    const fontsLoad = vi.fn(() => faces);
    Object.defineProperty(document, 'fonts', { value: { load: fontsLoad }, configurable: true });
    loadBrandFontAfterFirstPaint(async () => undefined);
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(fontsLoad).toHaveBeenCalledWith('1em "Pretendard Variable"', '체험용 계정'));
    expect(document.documentElement.classList.contains('brand-font')).toBe(false);
    facesLoaded([]);
    // Switched in an idle moment (at most a second away).
    await vi.waitFor(() => expect(document.documentElement.classList.contains('brand-font')).toBe(true), 3000);
  });

  it('lays the text out in the brand font off screen, style by style, before the switch, and leaves no trace', async () => {
    const { paint } = fakePaintObserver(['paint']);
    document.body.innerHTML =
      '<h1 style="font-weight: 700; font-size: 20px">납부하기</h1><p style="font-size: 14px">선택 0건</p>';
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
    await vi.waitFor(() => expect(document.documentElement.classList.contains('brand-font')).toBe(true), 5000);
    observer.disconnect();
    expect(warmed).toEqual([
      '700 20px "Pretendard Variable" | 납부하기',
      '20px "Pretendard Variable" | 선택 0건'.replace('20px', '14px'),
    ]);
    expect(document.querySelector('[data-brand-font-warm-up]')).toBeNull();
  });
});

describe('switching part by part', () => {
  it('cuts the page into parts of at most 400 characters, splitting only what is longer', () => {
    const long = '가'.repeat(300);
    document.body.innerHTML = `<header>오굿페이</header><main><section id="a">${long}</section><section id="b"><p id="c">${long}</p><p id="d">${long}</p></section></main>`;
    expect(switchParts(document.body).map((part) => part.id || part.tagName)).toEqual(['HEADER', 'a', 'c', 'd']);
  });

  it('switches each part before the whole document, and leaves no part marked', async () => {
    const { paint } = fakePaintObserver(['paint']);
    const long = '나'.repeat(300);
    document.body.innerHTML = `<main><section id="a">${long}</section><section id="b">${long}</section></main>`;
    Object.defineProperty(document, 'fonts', { value: { load: async () => [] }, configurable: true });
    const steps: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (target === document.documentElement && target.classList.contains('brand-font')) steps.push('document');
        else if (target.classList.contains('brand-font-part')) steps.push(target.id);
      }
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'], subtree: true });
    loadBrandFontAfterFirstPaint(async () => undefined);
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(document.documentElement.classList.contains('brand-font')).toBe(true), 5000);
    observer.disconnect();
    expect(steps).toEqual(['a', 'b', 'document']);
    expect(document.querySelector('.brand-font-part')).toBeNull();
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
