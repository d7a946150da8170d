import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { CODE_NOT_LOADED_REASON } from '../code-not-loaded';
import { notify } from '../notify';

/**
 * A sheet or dialog whose code loads the first time it opens (on a tap), so the screen that offers it does not
 * carry it until then. Nothing shows while it loads: it is local and quick. If its code does not arrive, a toast
 * says why and the sheet closes (`onClose`): the screen behind it stays as it was (ADR 0264).
 *
 * `lazyDialog` does the same for the entry's dialogs. This one is apart on purpose: when a lazily loaded chunk
 * (the feed's) imports a module that the entry's dialogs import too, the bundler splits the entry's shared
 * code into more chunks (`notify` and the load-error words, +0.3 KB on the first load of `/`, measured).
 */
export function onDemand<P extends { onClose(): void }>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const Loaded = lazy(() => load().catch(() => ({ default: NotOpened as ComponentType<P> })));
  return function OnDemand(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

/** In the sheet's place: says why once, and closes it. */
function NotOpened({ onClose }: { onClose(): void }) {
  useEffect(() => {
    notify(CODE_NOT_LOADED_REASON);
    onClose();
  }, [onClose]);
  return null;
}
