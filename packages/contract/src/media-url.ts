/** Joins a relative media path to the media base URL (default '/media/', or a CDN); absolute ones pass. */
export function mediaUrl(base: string, path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|blob:|data:)/.test(path) || path.startsWith('/')) return path;
  return `${base.endsWith('/') ? base : `${base}/`}${path}`;
}
