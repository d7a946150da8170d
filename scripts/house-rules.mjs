// The house rules that hold by construction, checked over the import graph (run by `npm run lint`):
// no import cycle, web features don't import each other (they are composed in app/), dependencies point
// one way (web → contract ← server; the e2e specs may also use server code), `events/` imports no module
// (consumers plug into it, not the reverse), product code never imports `src/test/`, `lib/` never imports
// `db/` (lib holds plain helpers; what touches the database lives in db/ or a module), `app.ts` starts no
// timer (recurring work belongs to the jobs), no module's service or job file outgrows SERVICE_MAX_LINES, and file
// names are kebab-case. The why stays inside the repository:
// code cites no section (§) of a document outside it, and every `docs/….md` it names exists, with the rule
// ids it names on that page. Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST = /\.test\.tsx?$/;
const SPEC = /\.spec\.ts$/;
const SOURCE = /\.(ts|tsx|mjs)$/;
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;
// A section sign and a number, as in a citation of the original spec or domain notes; written as an escape so
// this file passes its own check.
const SECTION = /\u00a7\s*\d/;
// A tracker's issue number (the word and a number, with or without #): the why belongs in the code, docs/rules or an ADR, not in a tracker.
// Committed migrations are exempt: they are append-only (scripts/migration-hashes.mjs).
const ISSUE = /\bissue\s*#?\s*\d+/i;
const MIGRATION = /\/db\/migrations\/[^/]+\.sql$/;
// A repository document named in code, and the rule ids right after it ("docs/rules/bills-and-grades.md#B9 and
// #B10"; the form without # is read too, to be refused).
const DOC = /\bdocs\/[\w./-]+?\.md\b((?:(?:[\s,–-]+(?:and\s+)?#?|#)[A-Z]\d+\b)*)/g;
const RULE_ID = /[A-Z]\d+/g;

/** Every source file below the given roots (relative to `root`), skipping dependencies and build output. */
export function sourceFiles(root, roots, include = (name) => SOURCE.test(name) || name.endsWith('.css')) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (include(name)) files.push(relative(root, path));
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
  file.startsWith('apps/web/e2e/') || file.startsWith('apps/web/playwright')
    ? 'e2e'
    : file.startsWith('apps/web/')
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
  // The specs drive the whole system; they share the server's recipes for test media, never the reverse.
  e2e: ['e2e', 'web', 'server', 'contract'],
  other: ['web', 'server', 'contract', 'other'],
};

const SERVER = 'apps/server/src/';
/** Test support (fixtures, harness, benches) below an app's `src/test/`. */
const TEST_SUPPORT = /^apps\/[^/]+\/src\/test\//;
const isProduct = (file) => !TEST.test(file) && !TEST_SUPPORT.test(file) && /^apps\/[^/]+\/src\//.test(file);

/** Layering inside the server and between product and test code; one line per import that breaks it. */
export function layerViolations(graph) {
  const problems = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      // Its tests may drive a module's write path to prove the seam end to end.
      if (from.startsWith(`${SERVER}events/`) && !TEST.test(from) && to.startsWith(`${SERVER}modules/`))
        problems.push(`events/ imports a module: ${from} → ${to} (a module plugs into events, not the reverse)`);
      if (from.startsWith(`${SERVER}lib/`) && to.startsWith(`${SERVER}db/`))
        problems.push(`lib/ imports db/: ${from} → ${to} (database code lives in db/ or a module)`);
      if (isProduct(from) && TEST_SUPPORT.test(to)) problems.push(`product code imports test support: ${from} → ${to}`);
    }
  }
  return problems;
}

const APP = `${SERVER}app.ts`;
const TIMER = /\bset(?:Interval|Timeout)\s*\(/;
/**
 * Timers `app.ts` may start, each named by the text of its line: none. Recurring work is a row of the job
 * registry (apps/server/src/jobs/registry.ts); an entry whose timer is gone is reported too.
 */
export const APP_TIMERS_ALLOWED = [];

/** A timer started in `app.ts` that is not on the allow-list, or an allow-list entry with no timer left. */
export function appTimerViolations(root, allowed = APP_TIMERS_ALLOWED) {
  if (!existsSync(join(root, APP))) return [];
  const lines = readFileSync(join(root, APP), 'utf8').split('\n');
  const problems = [];
  lines.forEach((line, i) => {
    if (TIMER.test(line) && !allowed.includes(line.trim()))
      problems.push(`app.ts starts a timer: ${APP}:${i + 1} (register a job instead)`);
  });
  for (const entry of allowed)
    if (!lines.some((line) => line.trim() === entry))
      problems.push(`allowed app.ts timer no longer there, drop it from APP_TIMERS_ALLOWED: ${entry}`);
  return problems;
}

const MODULES = `${SERVER}modules/`;
/**
 * A module's service file, one of the reads, actions and repository a service is split into, or a job whose
 * body lives in its module (its rules and transactions, as a service's, split the same way when it grows).
 */
const SERVICE_FILE = /(?:^|-)(?:service|reads|actions|repository|job)\.ts$/;
/**
 * The most lines a service file may have: the longest today (ops/customers-actions.ts). A service that
 * outgrows it is split by reads and actions, with its SQL in a repository file beside them.
 */
export const SERVICE_MAX_LINES = 216;

/** A server module's service file longer than `max` lines. */
export function serviceSizeViolations(root, files, max = SERVICE_MAX_LINES) {
  const problems = [];
  for (const file of files) {
    if (!file.startsWith(MODULES) || !SERVICE_FILE.test(file.split('/').pop() ?? '')) continue;
    const lines = readFileSync(join(root, file), 'utf8').split('\n').length - 1;
    if (lines > max) problems.push(`service file over ${max} lines: ${file} (${lines}; split it by reads and actions)`);
  }
  return problems;
}

/** The rule ids of a docs/rules page: the first cell of its table rows (`| P10 | … |`). */
function ruleIdsOf(text) {
  return new Set([...text.matchAll(/^\|\s*([A-Z]\d+)\s*\|/gm)].map((m) => m[1]));
}

/**
 * Code that explains itself with documents the repository does not hold: a section citation, a `docs/….md`
 * that does not exist, or a rule id its page does not define. SQL comments count as code here.
 */
export function citationViolations(root) {
  const files = sourceFiles(root, ['apps', 'packages', 'scripts'], (name) => /\.(ts|tsx|mjs|css|sql)$/.test(name));
  const pages = new Map();
  const idsOn = (doc) => {
    if (!pages.has(doc))
      pages.set(doc, existsSync(join(root, doc)) ? ruleIdsOf(readFileSync(join(root, doc), 'utf8')) : null);
    return pages.get(doc);
  };
  const problems = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const at = `${file}:${i + 1}`;
      if (SECTION.test(line))
        problems.push(`cites a section of a document outside the repo: ${at} (point at docs/rules)`);
      if (ISSUE.test(line) && !MIGRATION.test(file))
        problems.push(`cites an issue number: ${at} (say why in the code, docs/rules or an ADR)`);
      for (const m of line.matchAll(DOC)) {
        const doc = m[0].slice(0, m[0].length - m[1].length);
        const ids = idsOn(doc);
        if (/^\s/.test(m[1])) problems.push(`points at a rule without #: ${at} (write ${doc}#<rule>)`);
        if (ids === null) problems.push(`names a document that does not exist: ${at} (${doc})`);
        else
          for (const id of m[1].match(RULE_ID) ?? [])
            if (!ids.has(id)) problems.push(`names a rule ${doc} does not define: ${at} (${id})`);
      }
    });
  }
  return problems;
}

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
      // Tests and e2e specs may drive the repository's own tools (scripts/); app code never does.
      const allowed =
        ALLOWED[layerOf(from)].includes(layerOf(to)) ||
        ((TEST.test(from) || SPEC.test(from)) && layerOf(to) === 'other');
      if (!allowed) problems.push(`wrong-way import: ${from} → ${to}`);
    }
  }
  problems.push(...layerViolations(graph));
  problems.push(...appTimerViolations(root));
  problems.push(...serviceSizeViolations(root, files));
  for (const file of files) {
    const name = file.split('/').pop() ?? '';
    if (!KEBAB.test(name)) problems.push(`file name not kebab-case: ${file}`);
  }
  problems.push(...citationViolations(root));
  return problems;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = houseRuleViolations(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(
    'house rules: no import cycles, no cross-feature or wrong-way imports, events/ imports no module, no test ' +
      `support in product code, lib/ imports no db/, app.ts starts no timer, ` +
      `no service or job file over ${SERVICE_MAX_LINES} lines, ` +
      'kebab-case names, no outside citations',
  );
}
