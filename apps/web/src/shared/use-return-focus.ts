import { useEffect } from 'react';

/** While mounted, remembers what had focus; on unmount gives it back (overlays return focus to their opener). */
export function useReturnFocus(): void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
}
