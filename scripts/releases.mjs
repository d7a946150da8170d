// Releases are rows of CHANGELOG.md's table, newest first (see its header): version, date, full commit.
// The upgrade test and the commit-habits lint read the newest one from here. Plain Node, no dependencies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROW = /^\|\s*(\d+\.\d+(?:\.\d+)?)\s*\|\s*(\d{4}-\d{2}-\d{2})\s*\|\s*`([0-9a-f]{40})`\s*\|/gm;

/** Every release in CHANGELOG.md, newest first. */
export function releases(root) {
  const text = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  return [...text.matchAll(ROW)].map((m) => ({ version: m[1], date: m[2], commit: m[3] }));
}

/** The newest release; throws when the changelog names none. */
export function latestRelease(root) {
  const [latest] = releases(root);
  if (!latest) throw new Error('CHANGELOG.md names no release');
  return latest;
}
