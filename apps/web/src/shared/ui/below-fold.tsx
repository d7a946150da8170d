import { type ReactNode, Suspense } from 'react';
import { useIdleReveal } from '../use-idle-reveal';

/**
 * A part that starts below the fold on a phone: until the browser's first idle moment for it (one part per
 * moment, see useIdleReveal), an empty block of its height (`height`, measured at 390 px; `className` gives it
 * the part's own look) that nothing reads out; then the part itself. Its text, buttons and icons are so
 * rendered and laid out in a task of their own, not in the long one that shows the first screen (laying out
 * Hangul text in new sizes and weights is the costly part of a page). The part may be lazy: its place stays
 * until its code has come too.
 */
export function BelowFold({
  height,
  className,
  children,
}: {
  height: number;
  className?: string;
  children: ReactNode;
}) {
  const mounted = useIdleReveal(true);
  const place = <div className={className} style={{ minHeight: height }} aria-hidden="true" />;
  // A part whose code loads on demand (React.lazy) keeps the same place until its code is in.
  return mounted ? <Suspense fallback={place}>{children}</Suspense> : place;
}
