import { describe, expect, it } from 'vitest';
import { pageLoaders } from '../app/page-table';
// The file as text, exactly as the build reads it.
import pageTableSource from '../app/page-table.ts?raw';
import { type Manifest, pagesOfTable, routeHints } from './route-hints';

describe('route hints (build step)', () => {
  it('reads every page of the page table, so no page silently loses its hints', () => {
    const pages = pagesOfTable(pageTableSource);
    expect([...pages.keys()].sort()).toEqual(Object.keys(pageLoaders).sort());
    expect(pages.get('/login')).toBe('src/features/auth/pages/login-page');
    expect(pages.get('/chat')).toBe('src/app/pages/chat-route');
  });

  it("lists a page's own chunks and stylesheets, leaving out what the entry loads", () => {
    const manifest: Manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js' },
      '_input.js': { file: 'assets/input.js', css: ['assets/input.css'] },
      'src/features/auth/pages/login-page.tsx': {
        file: 'assets/login.js',
        imports: ['_react.js', '_input.js'],
        css: ['assets/login.css'],
      },
    };
    const hints = routeHints(new Map([['/login', 'src/features/auth/pages/login-page']]), manifest);
    expect(hints['/login']).toEqual({
      scripts: ['/assets/login.js', '/assets/input.js'],
      styles: ['/assets/login.css', '/assets/input.css'],
    });
    expect(() => routeHints(new Map([['/x', 'src/missing']]), manifest)).toThrow(/not in the build manifest/);
  });

  it('adds the modules every page needs to each page, once, leaving out what the entry loads', () => {
    const manifest: Manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js' },
      '_query.js': { file: 'assets/query.js' },
      'src/app/query-provider.tsx': { file: 'assets/query-provider.js', imports: ['_react.js', '_query.js'] },
      'src/features/auth/pages/login-page.tsx': { file: 'assets/login.js', imports: ['_react.js', '_query.js'] },
    };
    const pages = new Map([['/login', 'src/features/auth/pages/login-page']]);
    expect(routeHints(pages, manifest, ['src/app/query-provider'])['/login']?.scripts).toEqual([
      '/assets/login.js',
      '/assets/query.js',
      '/assets/query-provider.js',
    ]);
    expect(() => routeHints(pages, manifest, ['src/app/missing'])).toThrow(/every page → src\/app\/missing/);
  });
});
