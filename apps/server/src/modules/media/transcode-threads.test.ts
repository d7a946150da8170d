import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ffmpegWrapper, makeVideo, testTools } from '../../test/media';
import { probe, transcodeToMp4 } from './ffmpeg';

const dir = mkdtempSync(join(tmpdir(), 'transcode-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('transcodes on one thread (ADR 0170), with options the ffmpeg in use accepts', async () => {
  // The real ffmpeg, behind a wrapper that writes down the arguments it was given.
  const args = join(dir, 'args');
  const ffmpeg = ffmpegWrapper(join(dir, 'ffmpeg.sh'), `printf '%s\\n' "$@" > '${args}'`);
  const input = await makeVideo(dir, 'in.mp4', { seconds: 1 });
  const output = join(dir, 'out.mp4');

  await transcodeToMp4({ ...testTools, ffmpeg }, input, output, true, { background: true });

  const sent = readFileSync(args, 'utf8').trimEnd().split('\n');
  // The filter graph's threads are a global option, before the input; the encoder's an output option, just
  // before the output file (before the input it would be the decoder's).
  const filterThreads = sent.indexOf('-filter_threads');
  expect(sent.slice(filterThreads, filterThreads + 2)).toEqual(['-filter_threads', '1']);
  expect(filterThreads).toBeLessThan(sent.indexOf('-i'));
  expect(sent.slice(-3)).toEqual(['-threads', '1', output]);
  const made = await probe(testTools, output);
  expect(made.hasVideo).toBe(true);
  expect(made.hasAudio).toBe(true);
});
