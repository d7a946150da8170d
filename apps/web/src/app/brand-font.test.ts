import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadBrandFontAfterFirstPaint } from './brand-font';

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
    const fontsLoad = vi.fn(() => new Promise<unknown[]>((resolve) => (facesLoaded = resolve)));
    Object.defineProperty(document, 'fonts', { value: { load: fontsLoad }, configurable: true });
    loadBrandFontAfterFirstPaint(async () => undefined);
    paint('first-contentful-paint');
    await vi.waitFor(() => expect(fontsLoad).toHaveBeenCalledWith('1em "Pretendard Variable"', '체험용 계정'));
    expect(document.documentElement.classList.contains('brand-font')).toBe(false);
    facesLoaded([]);
    // Switched in an idle moment (at most a second away).
    await vi.waitFor(() => expect(document.documentElement.classList.contains('brand-font')).toBe(true), 3000);
  });
});
