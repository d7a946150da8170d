import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useIdleReveal } from './use-idle-reveal';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

afterEach(() => vi.unstubAllGlobals());

/** A component whose render takes `ms` of real time, as a card with many rows does on a slow phone. */
function Slow({ index, log, ms }: { index: number; log: string[]; ms: number }) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // The render's own work.
  }
  log.push(`row ${index}`);
  // A task that comes to the browser while the rows render (a tap, a frame), queued as the first one renders.
  if (index === 0) setTimeout(() => log.push('browser'));
  return <li>{index}</li>;
}

function Card({ log }: { log: string[] }) {
  const revealed = useIdleReveal(true);
  if (!revealed) return <p>불러오는 중...</p>;
  return (
    <ul>
      {Array.from({ length: 12 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
        <Slow key={index} index={index} log={log} ms={2} />
      ))}
    </ul>
  );
}

describe('useIdleReveal', () => {
  it('renders what it reveals in slices, letting the browser run between them', async () => {
    // Outside act(): act renders everything at once, which is what this test must tell apart.
    const actEnvironment = globalThis.IS_REACT_ACT_ENVIRONMENT;
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const log: string[] = [];
    const container = document.createElement('div');
    const root = createRoot(container);
    try {
      root.render(<Card log={log} />);
      await vi.waitFor(() => expect(idle).toHaveLength(1));
      expect(container.textContent).toBe('불러오는 중...');
      idle.shift()?.();
      await vi.waitFor(() => expect(container.querySelectorAll('li')).toHaveLength(12));
      const browser = log.indexOf('browser');
      // In one piece, all twelve rows (24 ms) render before the waiting task runs.
      expect(browser).toBeGreaterThan(0);
      expect(browser).toBeLessThan(log.indexOf('row 11'));
    } finally {
      root.unmount();
      globalThis.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});
