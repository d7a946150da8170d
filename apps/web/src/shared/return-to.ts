/**
 * Where to go after login: guarded pages send the user to `/login?next=<path+query>` and the
 * login page returns there. Only same-app paths are accepted, so the parameter cannot send anyone away.
 */
export function loginPath(next: string): string {
  const target = safeNext(next);
  return target === '/' ? '/login' : `/login?next=${encodeURIComponent(target)}`;
}

export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (next === '/login' || next.startsWith('/login?') || next.startsWith('/register')) return '/';
  return next;
}

/** The current page as a `next` value. */
export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}
