import { useEffect, useRef, useState } from 'react';

/**
 * One console read: its data, loading and error states, and a retry. It runs again whenever `key` changes
 * (the read's inputs, written as one string).
 */
export function useOps<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `attempt` are what make the read run again
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    latest.current().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState({ error: error.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
