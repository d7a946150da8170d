/**
 * The pages sent prerendered: the public ones, and the signed-in ones people open most, whose header, footer
 * and skeleton (src/shared/ui/page-skeletons.tsx, where a page has one) paint at once while the session is
 * read (their content renders after hydration). A module of its own, importing nothing, so the e2e suite
 * checks the same list the build renders.
 */
export const PRERENDERED_PATHS = [
  '/',
  '/login',
  '/register',
  '/shorts/feeds',
  '/shorts/search',
  '/payment',
  '/dashboard',
  '/mypage',
] as const;
