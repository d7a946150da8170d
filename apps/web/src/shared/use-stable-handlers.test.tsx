import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStableHandlers } from './use-stable-handlers';

describe('useStableHandlers', () => {
  it('keeps one object across renders and calls the handlers of the latest render', () => {
    const calls: string[] = [];
    const { result, rerender } = renderHook(
      ({ name }) => useStableHandlers({ greet: (to: string) => calls.push(`${name} → ${to}`) }),
      {
        initialProps: { name: 'first' },
      },
    );
    const first = result.current;
    first.greet('a');
    rerender({ name: 'second' });
    expect(result.current).toBe(first);
    expect(result.current.greet).toBe(first.greet);
    first.greet('b');
    expect(calls).toEqual(['first → a', 'second → b']);
  });
});
