/**
 * Build step (run by vite.config.ts, in Node): which files each lazily loaded page needs beyond the entry,
 * so the server can name them in that page's HTML (`<link rel="modulepreload">`, stylesheets) and the
 * browser fetches them together with the entry instead of discovering them one round trip later.
 */

/** The parts of Vite's build manifest this reads. */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface RouteHints {
  /** Module scripts to preload, as absolute URL paths. */
  scripts: string[];
  styles: string[];
}

const PAGE_LINE = /^\s*'(\/[^']*)': \(\) => import\('([^']+)'\),$/gm;

/** `'/path': () => import('../module'),` lines of src/app/page-table.ts → URL path → module key (from src/). */
export function pagesOfTable(tableSource: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const [, path, specifier] of tableSource.matchAll(PAGE_LINE)) {
    if (!path || !specifier) continue;
    // The table sits in src/app: '../features/x' is src/features/x, './pages/y' is src/app/pages/y.
    const fromSrc = specifier.startsWith('../') ? specifier.slice(3) : `app/${specifier.replace(/^\.\//, '')}`;
    pages.set(path, `src/${fromSrc}`);
  }
  return pages;
}

function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/** The entry's manifest key and every chunk it imports statically, and theirs. */
function entryClosure(manifest: Manifest): Set<string> {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  return entryKey ? closure(manifest, entryKey) : new Set<string>();
}

/**
 * The files of the entry's static imports (not the entry itself): every page's first load evaluates them, so
 * every page's HTML names them (`modulePreload` in vite.config.ts, ADR 0260).
 */
export function entryImportFiles(manifest: Manifest): string[] {
  return [...entryClosure(manifest)].filter((key) => !manifest[key]?.isEntry).map((key) => manifest[key]?.file ?? key);
}

function manifestKey(manifest: Manifest, module: string, what: string): string {
  const key = ['.tsx', '.ts'].map((ext) => `${module}${ext}`).find((candidate) => manifest[candidate]);
  if (!key) throw new Error(`route-hints: ${what} → ${module} is not in the build manifest`);
  return key;
}

/**
 * Every page's own chunks and stylesheets, leaving out what the entry already loads. `withEveryPage` names
 * modules (from src/, no extension) that every lazily loaded page needs beside its own, loaded lazily too.
 */
export function routeHints(
  pages: Map<string, string>,
  manifest: Manifest,
  withEveryPage: string[] = [],
): Record<string, RouteHints> {
  const entry = entryClosure(manifest);
  const shared = withEveryPage.map((module) => manifestKey(manifest, module, 'every page'));
  const hints: Record<string, RouteHints> = {};
  for (const [path, module] of pages) {
    const needed = new Set<string>();
    for (const key of [manifestKey(manifest, module, path), ...shared]) closure(manifest, key, needed);
    const own = [...needed].filter((dep) => !entry.has(dep));
    hints[path] = {
      scripts: own.map((dep) => `/${manifest[dep]?.file}`),
      styles: own.flatMap((dep) => manifest[dep]?.css ?? []).map((file) => `/${file}`),
    };
  }
  return hints;
}
