/** A question for the in-app confirm sheet (replaces window.confirm). */
export interface ConfirmRequest {
  title: string;
  message?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Destructive actions get the danger colour. */
  danger?: boolean;
}

export interface PendingConfirm extends ConfirmRequest {
  id: number;
  resolve: (answer: boolean) => void;
}

let pending: PendingConfirm | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Asks in the app's confirm sheet; resolves true on confirm, false on cancel, ✕ or Escape. */
export function confirmSheet(request: ConfirmRequest): Promise<boolean> {
  // Only one question at a time: a newer one answers the older one with "no".
  pending?.resolve(false);
  return new Promise((resolve) => {
    const id = nextId++;
    pending = {
      ...request,
      id,
      resolve: (answer) => {
        if (pending?.id === id) {
          pending = null;
          emit();
        }
        resolve(answer);
      },
    };
    emit();
  });
}

export function pendingConfirm(): PendingConfirm | null {
  return pending;
}

export function subscribeConfirm(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
