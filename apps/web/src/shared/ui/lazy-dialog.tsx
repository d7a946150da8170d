import { type ComponentType, type LazyExoticComponent, lazy, useEffect } from 'react';
import { CODE_NOT_LOADED_REASON } from '../code-not-loaded';
import { notify } from '../notify';

/**
 * A dialog whose code loads when it is first opened (React.lazy). If that code does not arrive (a dropped
 * connection), opening it says why in a toast and then runs `giveUp` with the dialog's props (close it, answer
 * "no"), so the screen that opened it stays as it was (ADR 0264).
 */
export function lazyDialog<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  giveUp: (props: P) => void,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    load().catch(() => ({
      default: (props: P) => <NotOpened giveUp={() => giveUp(props)} />,
    })),
  );
}

function NotOpened({ giveUp }: { giveUp: () => void }) {
  // giveUp closes the dialog, so this runs once; the toast says the same words only once anyway.
  useEffect(() => {
    notify(CODE_NOT_LOADED_REASON);
    giveUp();
  }, [giveUp]);
  return null;
}
