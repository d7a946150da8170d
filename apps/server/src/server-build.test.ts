import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

/* The compiled server (`scripts/build-server.mjs`), built into a directory of its own. */
const out = mkdtempSync(join(tmpdir(), 'ohgood-server-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it("carries zod's English messages only: no start compiles its other 40-odd locales", () => {
  execFileSync(process.execPath, [join(import.meta.dirname, '../../../scripts/build-server.mjs')], {
    env: { ...process.env, SERVER_OUT_DIR: out },
    stdio: 'ignore',
  });
  const code = readdirSync(out)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(out, file), 'utf8'))
    .join('\n');
  // Booleans, not the bundle's 3 MB in a failure message.
  const has = (text: string) => code.includes(text);
  expect(has('Invalid input: expected'), 'English').toBe(true);
  // German and Dutch, two of the locales the build leaves out (ASCII parts: the bundle escapes the rest).
  expect(has('Eingabe: erwartet'), 'German').toBe(false);
  expect(has('Ongeldige invoer'), 'Dutch').toBe(false);
  expect(readdirSync(join(out, 'migrations')).length).toBeGreaterThan(0);
}, 120_000);
