import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { clipArgs } from '../../server/src/modules/media/clip-recipe';

/**
 * ffmpeg for making test media (camera feeds, uploads): the system's when on PATH, else the binary that
 * ships in the npm package @ffmpeg-installer/ffmpeg (the server picks its tools the same way).
 */
function resolveFfmpeg(): string {
  if (spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0) return 'ffmpeg';
  const { path } = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755); // npm 11 skips the package's chmod install script
  }
  return path;
}

export const ffmpeg = resolveFfmpeg();

/** Runs ffmpeg quietly, overwriting its output. */
export function runFfmpeg(args: string[]): void {
  execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/**
 * Writes a 2 s portrait H.264 test clip (180×320, 15 fps, no sound) to `path`: an upload as a phone makes it.
 * `heavy` makes it noise, kept lossless: about 3.6 MB, a body still being sent when an early answer comes.
 */
export function writeTestClip(path: string, heavy = false): void {
  const noise = heavy ? { filters: ['noise=alls=100:allf=t'], output: ['-qp', '0'] } : {};
  runFfmpeg(clipArgs({ picture: 'testsrc2=size=180x320:rate=15', seconds: 2, ...noise }, path));
}
