/** Path prefixes the API owns. Everything else is the web app (static files and the SPA fallback). */
const API_PREFIXES = ['/api/', '/auth', '/chat', '/media/', '/health'];

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return API_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}
