import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throw-away directory holding `files` (path → text), for the repository's lint scripts to read. */
export function fileTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lint-tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
