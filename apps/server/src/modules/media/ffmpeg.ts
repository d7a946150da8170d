import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { type HostedOutput, runHosted } from './tool-host';

const require = createRequire(import.meta.url);

function onPath(name: string): boolean {
  const probe = spawnSync(name, ['-version'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** npm-shipped binaries; npm 11 skips their chmod install script, so make them executable here. */
function fromPackage(pkg: string): string | null {
  try {
    const path = (require(pkg) as { path: string }).path;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      chmodSync(path, 0o755);
    }
    return path;
  } catch {
    return null;
  }
}

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

/** Architecture doc: FFMPEG_PATH/FFPROBE_PATH, else the system tools on PATH, else the npm packages. */
export function resolveMediaTools(env: { FFMPEG_PATH?: string; FFPROBE_PATH?: string }): MediaTools {
  const ffmpeg = env.FFMPEG_PATH ?? (onPath('ffmpeg') ? 'ffmpeg' : fromPackage('@ffmpeg-installer/ffmpeg')) ?? 'ffmpeg';
  const ffprobe =
    env.FFPROBE_PATH ?? (onPath('ffprobe') ? 'ffprobe' : fromPackage('@ffprobe-installer/ffprobe')) ?? 'ffprobe';
  return { ffmpeg, ffprobe };
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * Work nobody waits on (a transcode after the upload answered): the tool runs at a lower CPU priority,
   * so on a small machine it takes the cores the requests leave idle instead of slowing every request.
   */
  background?: boolean;
}

/**
 * How much nicer a background tool runs than the server (nice(1): 0 is the server's, 19 the lowest). Where
 * chrt(1) exists (Linux), it also runs under SCHED_IDLE: on the CPU only when no request's work wants it
 * (ADR 0159).
 */
export const BACKGROUND_NICENESS = 19;

/**
 * Runs a tool under a small POSIX shell that ties it to this process: a watcher kills the tool as soon as
 * this server is gone (even by kill -9, which runs no exit handler), so no ffmpeg outlives its server and
 * keeps encoding a short the restarted server is transcoding again. SIGTERM (an abort) kills it at once.
 * The watcher's own file descriptors go to /dev/null, so it never holds the tool's output pipes open.
 */
const TIED_TO_PARENT = [
  'if [ -z "$OHGOOD_NICENESS" ]; then "$@" &',
  'elif command -v chrt >/dev/null 2>&1; then chrt --idle 0 nice -n "$OHGOOD_NICENESS" "$@" &',
  'else nice -n "$OHGOOD_NICENESS" "$@" &',
  'fi',
  'tool=$!',
  `(while kill -0 "$OHGOOD_PARENT_PID" 2>/dev/null; do sleep 1; done; kill -KILL "$tool" 2>/dev/null) </dev/null >/dev/null 2>&1 & watcher=$!`,
  `trap 'kill -KILL "$tool" 2>/dev/null; kill "$watcher" 2>/dev/null; exit 143' TERM INT HUP`,
  'wait "$tool"; status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

/** A tool spawned by the server itself: only where the POSIX wrapper and the helper do not apply (Windows). */
function runDirect(bin: string, args: string[], signal: AbortSignal | undefined, output: HostedOutput) {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    child.stdout.on('data', (chunk: Buffer) => output.stdout(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.stderr(chunk.toString()));
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/** Runs a tool to completion; rejects with its stderr tail on a non-zero exit. */
export async function runTool(
  bin: string,
  args: string[],
  { signal, background }: RunOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const output: HostedOutput = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr = (stderr + text).slice(-8000);
    },
  };
  const code =
    process.platform === 'win32'
      ? await runDirect(bin, args, signal, output)
      : await runHosted(
          '/bin/sh',
          ['-c', TIED_TO_PARENT, 'ohgood-tool', bin, ...args],
          { OHGOOD_PARENT_PID: String(process.pid), OHGOOD_NICENESS: background ? String(BACKGROUND_NICENESS) : '' },
          output,
          signal,
        );
  if (code !== 0) throw new ToolError(`${bin} exited with ${code}`, stderr);
  return { stdout, stderr };
}

export interface ProbeResult {
  formatName: string;
  durationSeconds: number | null;
  width: number;
  height: number;
  hasVideo: boolean;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }>;
}

export async function probe(tools: MediaTools, file: string, options: RunOptions = {}): Promise<ProbeResult> {
  const { stdout } = await runTool(
    tools.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    options,
  );
  const json = JSON.parse(stdout) as FfprobeJson;
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const raw = Number(json.format?.duration ?? video?.duration);
  return {
    formatName: json.format?.format_name ?? '',
    durationSeconds: Number.isFinite(raw) && raw > 0 ? raw : null,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    hasVideo: video !== undefined,
    hasAudio: audio !== undefined,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
  };
}

/**
 * Duration when the container has none (Chrome's MediaRecorder webm): remux the video stream to nowhere and
 * read the last timestamp ffmpeg reports. Copying is fast: nothing is decoded.
 */
export async function measureDuration(
  tools: MediaTools,
  file: string,
  options: RunOptions = {},
): Promise<number | null> {
  const { stderr } = await runTool(
    tools.ffmpeg,
    ['-hide_banner', '-nostdin', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'],
    options,
  );
  const matches = [...stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
  const last = matches.at(-1);
  if (!last) return null;
  const seconds = Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
  return seconds > 0 ? seconds : null;
}

/** The first frame as a JPEG poster. */
export async function extractPoster(tools: MediaTools, input: string, output: string, options: RunOptions = {}) {
  await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      "scale='trunc(min(iw,720)/2)*2':-2",
      '-q:v',
      '4',
      output,
    ],
    options,
  );
}

/**
 * H.264/AAC fast-start MP4 with the short side at most 720 px (docs/rules/shorts.md#S7), filtered and encoded
 * on one thread: with ffmpeg's default of a thread per core, even under SCHED_IDLE, a transcode took every
 * core a request left idle for a moment, and requests slowed while it ran (ADR 0170).
 */
export async function transcodeToMp4(
  tools: MediaTools,
  input: string,
  output: string,
  hasAudio: boolean,
  options: RunOptions = {},
) {
  const scale = "scale='if(gte(iw,ih),-2,trunc(min(iw,720)/2)*2)':'if(gte(iw,ih),trunc(min(ih,720)/2)*2,-2)'";
  await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-filter_threads',
      '1',
      '-i',
      input,
      '-map',
      '0:v:0',
      ...(hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : ['-an']),
      '-vf',
      scale,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-r',
      '30',
      '-movflags',
      '+faststart',
      '-threads',
      '1',
      output,
    ],
    options,
  );
}
