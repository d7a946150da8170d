/**
 * Removes the server's poster placeholder (`#lcp-shell`, see global.css) once the app shows a video of its
 * own, or as soon as the app is somewhere else than the feed. Until then it sits behind the app.
 */
export function releaseLcpShell(): void {
  const shell = document.getElementById('lcp-shell');
  if (!shell) return;
  const root = document.getElementById('root');
  const done = () => {
    const away = !location.pathname.startsWith('/shorts/feeds');
    if (!away && !root?.querySelector('video')) return false;
    observer.disconnect();
    shell.remove();
    return true;
  };
  const observer = new MutationObserver(() => void done());
  if (!done() && root) observer.observe(root, { childList: true, subtree: true });
}
