import { type ComponentType, lazy, Suspense } from 'react';

/**
 * A component whose code loads the first time it renders (a sheet or dialog opened on a tap), so the screen
 * that offers it does not carry it until then. Nothing shows while it loads: it is local and quick.
 */
export function onDemand<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Loaded = lazy(load);
  return function OnDemand(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
