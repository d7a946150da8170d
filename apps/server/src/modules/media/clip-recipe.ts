/**
 * The one recipe for a generated clip: a lavfi picture, an optional sine tone, H.264/AAC in MP4. The demo seed
 * renders its shorts with it, and the server tests and the e2e specs make their upload media with it, so all
 * three feed the pipeline the same kind of file. Only arguments: the caller runs ffmpeg its own way (the
 * seed through `runTool`, tests with a child process). No imports, so the e2e specs can use it too.
 */
export interface ClipRecipe {
  /** A lavfi picture source without its duration, e.g. `testsrc2=size=180x320:rate=15`. */
  picture: string;
  seconds: number;
  /** A sine tone's pitch in Hz; without it the clip is silent. */
  toneHz?: number;
  /** Video filters, joined into one `-vf` chain. */
  filters?: readonly string[];
  /** More output options (rate control, audio level, faststart), placed before the file. */
  output?: readonly string[];
}

/** ffmpeg's input and output arguments for `recipe`, written to `file` (global flags are the caller's). */
export function clipArgs(recipe: ClipRecipe, file: string): string[] {
  const { picture, seconds, toneHz, filters = [], output = [] } = recipe;
  const tone =
    toneHz === undefined ? [] : ['-f', 'lavfi', '-i', `sine=frequency=${toneHz}:sample_rate=44100:duration=${seconds}`];
  return [
    ...['-f', 'lavfi', '-i', `${picture}:duration=${seconds}`],
    ...tone,
    ...(filters.length > 0 ? ['-vf', filters.join(',')] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(toneHz === undefined ? [] : ['-c:a', 'aac']),
    ...output,
    ...['-f', 'mp4', file],
  ];
}

/** Constant-bitrate options for the video (a test that needs a known size per second). */
export const constantVideoBitrate = (rate: string): string[] => [
  '-b:v',
  rate,
  '-minrate',
  rate,
  '-maxrate',
  rate,
  '-bufsize',
  rate,
];
