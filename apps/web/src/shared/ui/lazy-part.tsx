import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { ErrorText } from './page';

/** A reload fetches the code again: a browser keeps a failed module's answer for the page's lifetime. */
const reloadPage = () => location.reload();

/**
 * A part of a screen whose code loads on its own (React.lazy), for a lazily loaded chunk to use. If that code
 * does not arrive (a dropped connection), the part's own place shows the failure in Korean with a retry that
 * loads the page again, and the rest of the screen stays. The router's boundary would take the whole page's
 * place, and a lazily loaded chunk that imports the boundary costs the first load (ADR 0264).
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy<ComponentType<P>>(() =>
    load().then(
      (part) => ({ default: part }),
      (error: unknown) => ({ default: () => <ErrorText error={error} onRetry={reloadPage} /> }),
    ),
  );
}
