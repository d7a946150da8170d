/**
 * One toast at a time: a new message replaces the shown one, and the same message raised again
 * while it is visible only restarts its timer, so one event never stacks two toasts. The timer runs only
 * once something shows the toast (the toaster subscribes as it mounts): a message raised before the app has
 * hydrated, as the session's expiry can be, still stays its full time on screen.
 */
export const TOAST_MS = 3000;

export interface Toast {
  id: number;
  message: string;
}

let current: Toast | null = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  current = null;
  emit();
}

function startTimer(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(dismissToast, TOAST_MS);
}

export function showToast(message: string): void {
  if (current?.message !== message) {
    current = { id: nextId++, message };
    emit();
  }
  if (listeners.size > 0) startTimer();
}

export function currentToast(): Toast | null {
  return current;
}

export function subscribeToast(listener: () => void): () => void {
  listeners.add(listener);
  if (current && !timer) startTimer();
  return () => listeners.delete(listener);
}
