import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the web build lists per lazily loaded page (apps/web/src/build/route-hints.ts). */
interface RouteHints {
  scripts: string[];
  styles: string[];
}

/**
 * The page's largest image, known on the server before any script runs (the feed's first poster). The
 * HTML preloads it and shows it at once where the page will (`#lcp-shell`, styled by the app's global
 * CSS, removed by the app when its own video is on screen), so it paints before the scripts have run
 * instead of after the app has asked the API for it. Null when none.
 */
export type LcpImageOf = (path: string, query: URLSearchParams) => Promise<string | null>;

/** A JSON file the web build writes, or an empty object when that build did not write it. */
function readJson<T extends object>(file: string): T {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : ({} as T);
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html for a path, with `<link>` hints for that page's chunks, stylesheets and largest image in its
 * head. Without them the browser discovers each one only after the previous step ran: entry script →
 * page chunk → API answer → poster, one round trip each on a phone network.
 */
export function createPageHtml(distDir: string, lcpImageOf?: LcpImageOf) {
  const index = readFileSync(join(distDir, 'index.html'), 'utf8');
  const prerendered = readJson<Record<string, string>>(join(distDir, 'prerendered.json'));
  const hints = readJson<Record<string, RouteHints>>(join(distDir, 'route-hints.json'));
  const withHead = (html: string, links: string[]) =>
    links.length ? html.replace('</head>', `${links.join('')}</head>`) : html;
  const withShell = (image: string) =>
    index.replace(
      '<div id="root">',
      `<div id="lcp-shell" aria-hidden="true"><img src="${escapeAttribute(image)}" alt="" fetchpriority="high"></div><div id="root">`,
    );
  // The static part per path is built once; only the image is looked up per request.
  const staticLinks = new Map<string, string[]>(
    Object.entries(hints).map(([path, { scripts, styles }]) => [
      path,
      [
        ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${escapeAttribute(href)}">`),
        ...scripts.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`),
      ],
    ]),
  );

  // A page rendered at build time (apps/web/src/build/prerender.tsx) goes into #root, for the app to hydrate.
  // Only for its exact URL: a query (`?shortsId=`) can change what the page renders first. It stays inert
  // until hydrated (apps/web/src/app/prerendered-root.tsx): input made before then would be lost.
  const filled = (path: string, search: string | undefined, html: string) => {
    const content = search === undefined ? prerendered[path] : undefined;
    return content === undefined
      ? html
      : html.replace('<div id="root"></div>', `<div id="root" inert aria-disabled="true">${content}</div>`);
  };

  return async function pageHtml(url: string): Promise<string> {
    const [rawPath = '/', search] = url.split('?');
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const links = [...(staticLinks.get(path) ?? [])];
    const image = lcpImageOf ? await lcpImageOf(path, new URLSearchParams(search ?? '')).catch(() => null) : null;
    if (!image) return filled(path, search, withHead(index, links));
    links.unshift(`<link rel="preload" as="image" fetchpriority="high" href="${escapeAttribute(image)}">`);
    return filled(path, search, withHead(withShell(image), links));
  };
}
