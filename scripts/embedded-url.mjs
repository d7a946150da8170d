import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The connection URL of the embedded PostgreSQL that a server started under `dataDir` left running. */
export function embeddedUrl(dataDir) {
  const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
  // Line 4 of postmaster.pid is the port the server listens on.
  const port = readFileSync(join(dataDir, 'postgres/postmaster.pid'), 'utf8').split('\n')[3];
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/ohgood`;
}
