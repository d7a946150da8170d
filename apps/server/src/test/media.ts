import { spawn } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdtempSync, watch, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clipArgs, constantVideoBitrate } from '../modules/media/clip-recipe';
import { resolveMediaTools } from '../modules/media/ffmpeg';
import type { Harness } from './harness';

/** The same ffmpeg/ffprobe the app picks: the system's when on PATH, else the npm-shipped binaries. */
export const testTools = resolveMediaTools({});

/**
 * A shell script at `path` that runs `before` (which may act on the arguments in "$@" and exit) and then the
 * real ffmpeg with the same arguments: the tests' way to make one step of a real run fail, wait or hang.
 */
export function ffmpegWrapper(path: string, before: string): string {
  writeFileSync(path, `#!/bin/sh\n${before}\nexec '${testTools.ffmpeg}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Shell that runs `action` when ffmpeg is asked for an H.264 encode (the transcode, not a probe or poster). */
export const onH264Encode = (action: string) => `for a in "$@"; do [ "$a" = libx264 ] && { ${action}; }; done`;

/** A real ffmpeg whose H.264 encoder "breaks": probing and posters work, the transcode does not. */
export function brokenEncoderFfmpeg(dir: string): string {
  return ffmpegWrapper(join(dir, 'broken-ffmpeg.sh'), onH264Encode('echo "encoder failure" >&2; exit 1'));
}

/**
 * An ffmpeg whose H.264 encode waits until `release()` and then fails: `started` resolves once the transcode
 * has begun, so a test can look at what is stored mid-transcode, then let it fail.
 */
export function heldBrokenEncoderFfmpeg(dir: string): { ffmpeg: string; started: Promise<void>; release(): void } {
  const held = mkdtempSync(join(dir, 'held-encoder-'));
  const marker = join(held, 'started');
  const go = join(held, 'go');
  const ffmpeg = ffmpegWrapper(
    join(held, 'ffmpeg.sh'),
    onH264Encode(`: > '${marker}'; while [ ! -f '${go}' ]; do sleep 0.05; done; echo "encoder failure" >&2; exit 1`),
  );
  const started = new Promise<void>((resolve) => {
    const watcher = watch(held, () => {
      if (!existsSync(marker)) return;
      watcher.close();
      resolve();
    });
  });
  return { ffmpeg, started, release: () => writeFileSync(go, '') };
}

/** Real media made by ffmpeg for tests (never committed). */
export async function makeVideo(
  dir: string,
  name: string,
  options: {
    seconds: number;
    format?: 'mp4' | 'webm-stream';
    size?: string;
    fps?: number;
    audio?: boolean;
    bitrate?: string;
  },
): Promise<string> {
  const { seconds, format = 'mp4', size = '64x112', fps = 10, audio = true, bitrate } = options;
  const file = join(dir, name);
  const picture = `testsrc2=size=${size}:rate=${fps}`;
  const toneHz = audio ? 440 : undefined;
  if (format === 'mp4') {
    const output = bitrate ? constantVideoBitrate(bitrate) : [];
    await run(['-hide_banner', '-loglevel', 'error', '-y', ...clipArgs({ picture, seconds, toneHz, output }, file)]);
    return file;
  }
  // Piped WebM has no duration in its header, like Chrome's MediaRecorder output.
  const input = ['-f', 'lavfi', '-i', `${picture}:duration=${seconds}`];
  if (audio) input.push('-f', 'lavfi', '-i', `sine=frequency=${toneHz}:duration=${seconds}`);
  const codec = [
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-b:v',
    '200k',
    ...(audio ? ['-c:a', 'libopus'] : []),
    '-f',
    'webm',
  ];
  const args = ['-hide_banner', '-loglevel', 'error', '-y', ...input, ...codec];
  await run([...args, 'pipe:1'], file);
  return file;
}

export async function makeImage(dir: string, name: string, codec: 'png' | 'mjpeg'): Promise<string> {
  const file = join(dir, name);
  await run([
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=64x112',
    '-frames:v',
    '1',
    '-c:v',
    codec,
    file,
  ]);
  return file;
}

function run(args: string[], stdoutFile?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(testTools.ffmpeg, args, { stdio: ['ignore', stdoutFile ? 'pipe' : 'ignore', 'pipe'] });
    const out = stdoutFile ? createWriteStream(stdoutFile) : null;
    if (out && child.stdout) child.stdout.pipe(out);
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`ffmpeg failed: ${err}`));
      else if (out && !out.writableFinished) out.on('finish', () => resolve());
      else resolve();
    });
  });
}

/** A multipart body built by hand, so tests send exactly the bytes they mean. */
export async function multipart(
  fields: Record<string, string>,
  files: Record<string, { path: string; filename: string; type: string }>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const boundary = `----ohgood${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${file.filename}"\r\ncontent-type: ${file.type}\r\n\r\n`,
      ),
    );
    chunks.push(await readFile(file.path));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a video through the API and waits for the background transcode. */
export async function uploadShort(
  h: Harness,
  token: string,
  video: string,
  fields: { title?: string; content?: string } = {},
): Promise<number> {
  const body = await multipart(
    { title: fields.title ?? '테스트 영상', content: fields.content ?? '테스트 설명 #테스트' },
    { video: { path: video, filename: 'clip.mp4', type: 'video/mp4' } },
  );
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
  await h.app.mediaPipeline.idle();
  return res.json().data.shortsId as number;
}
