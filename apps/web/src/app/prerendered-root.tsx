import { useEffect } from 'react';

/**
 * A prerendered page arrives with `#root` inert (apps/server/src/http/page-html.ts): its form fields and
 * buttons are painted before the scripts run, and text typed or a tap made then would be lost (React keeps
 * state, not what the DOM holds) or would submit the form natively. Once React has hydrated the page, this
 * hands it to the user. Renders nothing, so the tree matches the prerendered HTML.
 */
export function WhenHydrated({ root }: { root: HTMLElement }) {
  useEffect(() => {
    root.removeAttribute('inert');
    root.removeAttribute('aria-disabled');
  }, [root]);
  return null;
}
