import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A secret generated once into `file` (mode 600) and read back on later starts. Never logged, never in git.
 */
export function readOrCreateSecret(file: string, bytes = 48): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(bytes).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The JWT signing secret: from the environment when set; in the embedded default, generated once and kept
 * in the data directory so tokens survive a restart.
 */
export function resolveJwtSecret(fromEnv: string | undefined, dataDir: string): string {
  return fromEnv || readOrCreateSecret(join(dataDir, 'jwt-secret'));
}
