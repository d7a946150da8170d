import { Component, type ReactNode } from 'react';
import { isCodeNotLoaded } from '../code-not-loaded';
import { ErrorText, reloadPage } from './page';

/** What a part that threw while rendering says: its own words, not the code's English. */
const RENDER_FAILED = new Error('화면을 표시하지 못했습니다.');

/**
 * A part of the screen that fails — its code did not arrive (a lazy chunk on a dropped connection), or it threw
 * while rendering — shows the failure in its own place with a retry, and the rest of the screen keeps working.
 * Without one, React unmounts the whole app and leaves a blank page. `fallback`, when given, shows instead (a
 * part that may quietly be absent, like the header's bell). React offers this only as a class (ADR 0264).
 *
 * Used by the entries' own modules (the router, the header's bell, Home's card; the operator console's screens).
 * A lazily loaded chunk that imports it makes the bundler split the entry's shared code into more chunks, 1.3 KB
 * more on the first load of `/` (measured); such a chunk answers a failed load in its loader instead
 * (`lazyPart`, `onDemand`).
 */
export class FailureBoundary extends Component<
  { children: ReactNode; fallback?: ReactNode; onRetry?: () => void },
  { failed: unknown }
> {
  override state: { failed: unknown } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: isCodeNotLoaded(error) ? error : RENDER_FAILED };
  }

  override render() {
    const { children, fallback, onRetry = reloadPage } = this.props;
    const { failed } = this.state;
    if (failed === null) return children;
    return fallback !== undefined ? fallback : <ErrorText error={failed} onRetry={onRetry} />;
  }
}
