import { useMemo, useRef } from 'react';

// biome-ignore lint/suspicious/noExplicitAny: any function's arguments
type Handlers<T> = { [K in keyof T]: (...args: any[]) => unknown };

/**
 * An object of functions whose identity never changes and which always call the latest ones given: handed to
 * memoised children, it lets them skip a render when only their parent's closures are new. Its keys are those
 * of the first render.
 */
export function useStableHandlers<T extends Handlers<T>>(handlers: T): T {
  const latest = useRef(handlers);
  // Read only when a handler is called, which is never during a render.
  latest.current = handlers;
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once; each call reads `latest`
  return useMemo(
    () =>
      Object.fromEntries(
        (Object.keys(handlers) as (keyof T)[]).map((key) => [
          key,
          (...args: unknown[]) => latest.current[key](...args),
        ]),
      ) as T,
    [],
  );
}
