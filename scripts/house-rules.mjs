// The house rules that hold by construction, checked over the import graph (run by `npm run lint`):
// no import cycle, web features don't import each other (they are composed in app/), dependencies point
// one way (web → contract ← server), and file names are kebab-case. Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST = /\.test\.tsx?$/;
const SOURCE = /\.(ts|tsx|mjs)$/;
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;

/** Every source file below the given roots (relative to `root`), skipping dependencies and build output. */
export function sourceFiles(root, roots) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) || name.endsWith('.css')) files.push(relative(root, path));
    }
  };
  for (const r of roots) if (existsSync(join(root, r))) walk(join(root, r));
  return files.sort();
}

/** The import specifiers of one file's text. */
export function importsOf(text) {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]).filter(Boolean);
}

/** Resolves a specifier to a project file, or null for packages outside the project. */
function resolveImport(from, spec, files) {
  let base;
  if (spec.startsWith('.')) base = join(dirname(from), spec);
  else if (spec.startsWith('@ohgood/contract/')) base = join('packages/contract/src', spec.slice(17));
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, join(base, 'index.ts')];
  return candidates.find((c) => files.has(c)) ?? null;
}

/** The graph of project-internal imports: file → files it imports. */
export function importGraph(root, files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    if (file.endsWith('.css')) continue;
    const targets = importsOf(readFileSync(join(root, file), 'utf8'))
      .map((spec) => resolveImport(file, spec, known))
      .filter((target) => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each import cycle once, as the list of files around it (depth-first search with colouring). */
export function findCycles(graph) {
  const cycles = [];
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

const featureOf = (file) => /^apps\/web\/src\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
const layerOf = (file) =>
  file.startsWith('apps/web/')
    ? 'web'
    : file.startsWith('apps/server/')
      ? 'server'
      : file.startsWith('packages/contract/')
        ? 'contract'
        : 'other';
const ALLOWED = {
  web: ['web', 'contract'],
  server: ['server', 'contract'],
  contract: ['contract'],
  other: ['web', 'server', 'contract', 'other'],
};

/** Every broken house rule in the tree at `root`, as readable lines. */
export function houseRuleViolations(root) {
  const files = sourceFiles(root, ['apps', 'packages', 'scripts']);
  const graph = importGraph(root, files);
  const problems = [];
  for (const cycle of findCycles(graph)) problems.push(`import cycle: ${cycle.join(' → ')}`);
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [featureOf(from), featureOf(to)];
      if (a && b && a !== b) problems.push(`cross-feature import: ${from} → ${to} (compose features in app/)`);
      // Tests may drive the repository's own tools (scripts/); app code never does.
      const allowed = ALLOWED[layerOf(from)].includes(layerOf(to)) || (TEST.test(from) && layerOf(to) === 'other');
      if (!allowed) problems.push(`wrong-way import: ${from} → ${to}`);
    }
  }
  for (const file of files) {
    const name = file.split('/').pop() ?? '';
    if (!KEBAB.test(name)) problems.push(`file name not kebab-case: ${file}`);
  }
  return problems;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = houseRuleViolations(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('house rules: no import cycles, no cross-feature or wrong-way imports, kebab-case names');
}
