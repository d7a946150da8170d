import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * One web data style (ADR 0208): the network is reached in two places, the caller factory (every API call of
 * both apps, with its one other transport: an upload that reports its bytes) and the event-stream reader
 * (every live stream). A screen or hook with its own fetch, its own SSE parsing or its own read-again counter
 * would be a second style.
 */
const src = join(__dirname, '..');
const sources = (readdirSync(src, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .map((file) => ({ file: file.split('\\').join('/'), text: readFileSync(join(src, file), 'utf8') }));

/** Source files whose code (comments aside) matches `pattern`. */
const matching = (pattern: RegExp) =>
  sources
    .filter(({ text }) => pattern.test(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
    .map(({ file }) => file)
    .sort();

describe('one way to the network', () => {
  it('calls fetch only in the caller factory and the event-stream reader (and for a local blob)', () => {
    expect(sources.length).toBeGreaterThan(100);
    // Called, or handed on as the caller's default transport.
    expect(matching(/(?<![\w.'"`])fetch(?![\w'"`-])/)).toEqual([
      // A picked or recorded file handed between pages as a blob: URL, not the API.
      'features/shorts/file-handoff.ts',
      'shared/caller.ts',
      'shared/event-stream.ts',
    ]);
  });

  it('sends with XMLHttpRequest only in the caller’s upload transport', () => {
    expect(matching(/(?<![\w.'"`])XMLHttpRequest(?![\w'"`])/)).toEqual(['shared/upload-request.ts']);
  });

  it('reads Server-Sent Events only in the event-stream reader', () => {
    expect(matching(/text\/event-stream|EventSource\(|getReader\(/)).toEqual(['shared/event-stream.ts']);
  });

  it('keeps no read-again counter beside TanStack Query in the console', () => {
    expect(matching(/setVersion|useOps\b/)).toEqual([]);
  });
});
