import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { withoutEndpointDocs } from './endpoint-docs';

const contract = join(__dirname, '../../../../packages/contract/src');

describe('withoutEndpointDocs', () => {
  it('drops summary and tags from endpoint declarations, wherever they sit, and nothing else', () => {
    const source = `
      const a = defineEndpoint({ method: 'GET', path: '/a', summary: '가', tags: ['x'], access: 'public' });
      const b = defineEndpoint({ summary: '나', method: 'POST', path: '/b', access: 'customer', tags: ['y'], });
      const c = defineEndpoint({ tags: ['z'], summary: '다' });
      const other = { summary: '그대로', tags: ['keep'] };
    `;
    const out = withoutEndpointDocs(source, 'x.ts');
    expect(parseSync('x.ts', out).errors).toEqual([]);
    const run = new Function('defineEndpoint', `${out}; return { a, b, c, other };`) as (
      define: (config: object) => object,
    ) => Record<string, object>;
    const { a, b, c, other } = run((config) => config);
    expect(a).toEqual({ method: 'GET', path: '/a', access: 'public' });
    expect(b).toEqual({ method: 'POST', path: '/b', access: 'customer' });
    expect(c).toEqual({});
    expect(other).toEqual({ summary: '그대로', tags: ['keep'] });
  });

  it("leaves every contract module valid, with its endpoints' paths and none of their summaries", () => {
    const files = readdirSync(contract).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const withEndpoints = files.filter((file) =>
      readFileSync(join(contract, file), 'utf8').includes('defineEndpoint({'),
    );
    expect(withEndpoints.length).toBeGreaterThan(10);
    for (const file of withEndpoints) {
      const source = readFileSync(join(contract, file), 'utf8');
      const out = withoutEndpointDocs(source, file);
      expect(parseSync(file, out).errors, file).toEqual([]);
      const paths = (text: string) => text.match(/path: '[^']*'/g) ?? [];
      expect(paths(out), file).toEqual(paths(source));
      // Declared in the source as `summary: '…',` and `tags: ['…'],` (a schema's `tags: z.array(…)` stays).
      expect(out, file).not.toMatch(/^\s*summary: ['`]/m);
      expect(out, file).not.toMatch(/^\s*tags: \[/m);
    }
  });
});
