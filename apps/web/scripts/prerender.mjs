// Build step after `vite build` and `vite build --ssr src/build/prerender.tsx`: renders each prerendered
// path with the server bundle and writes dist/prerendered.json (path → inner HTML of #root), which the
// server puts into those pages' HTML (apps/server/src/http/page-html.ts). See ADR 0117.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../.prerender/', import.meta.url);
const { prerenderAll } = await import(new URL('prerender.js', bundle).href);
const shells = await prerenderAll();
writeFileSync(fileURLToPath(new URL('../dist/prerendered.json', import.meta.url)), JSON.stringify(shells));
rmSync(fileURLToPath(bundle), { recursive: true, force: true });
console.log(`prerendered ${Object.keys(shells).join(', ')}`);
