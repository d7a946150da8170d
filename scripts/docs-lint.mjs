// The docs hold decisions only if their links hold (run by `npm run lint`): every ADR that amends or
// supersedes another is named back in that other ADR ("amended by" / "superseded by"), the status in the
// index (docs/decisions/README.md) is the status written in the file, and every test a rule book
// (docs/rules/*.md) names as proof exists: the file, and each title given after `›` (a title ending in `…` is
// a prefix). Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './house-rules.mjs';

const DECISIONS = 'docs/decisions';
const RULES = 'docs/rules';
const ADR_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;
// A link and the words after it up to the end of its clause: "amends 0139 and 0164", "Accepted, amended by 0103".
const LINK = /\b(amends|supersedes|amended by|superseded by)\b([^.;:)|\n]*)/gi;
const BACK = { amends: 'amended by', supersedes: 'superseded by' };

/** Every ADR: number → { file, text, status }. */
function readDecisions(root) {
  const dir = join(root, DECISIONS);
  const adrs = new Map();
  if (!existsSync(dir)) return adrs;
  for (const file of readdirSync(dir)) {
    const m = ADR_FILE.exec(file);
    if (!m) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const status = /^Status:\s*(.+)$/m.exec(text)?.[1].trim() ?? null;
    adrs.set(m[1], { file: `${DECISIONS}/${file}`, text, status });
  }
  return adrs;
}

/** The ADR numbers each kind of link in `text` names (only numbers that are ADRs, never `self`). */
export function linksOf(text, self, known) {
  const links = { amends: new Set(), supersedes: new Set(), 'amended by': new Set(), 'superseded by': new Set() };
  for (const m of text.matchAll(LINK)) {
    for (const n of m[2].match(/\b\d{4}\b/g) ?? []) if (n !== self && known.has(n)) links[m[1].toLowerCase()].add(n);
  }
  return links;
}

/** Missing back-links, and index rows whose status is not the file's. */
export function decisionViolations(root) {
  const adrs = readDecisions(root);
  const known = new Set(adrs.keys());
  const links = new Map([...adrs].map(([n, adr]) => [n, linksOf(adr.text, n, known)]));
  const problems = [];
  for (const [n, adr] of adrs) {
    if (adr.status === null) problems.push(`${adr.file} has no Status: line`);
    for (const [kind, back] of Object.entries(BACK))
      for (const other of links.get(n)[kind])
        if (!links.get(other)[back].has(n))
          problems.push(`${adr.file} ${kind} ${other}, but ${adrs.get(other).file} does not say "${back} ${n}"`);
  }
  const index = join(root, DECISIONS, 'README.md');
  if (!existsSync(index)) return problems;
  const rows = new Map();
  for (const m of readFileSync(index, 'utf8').matchAll(/^\|\s*(\d{4})\s*\|.*\|\s*([^|]+?)\s*\|\s*$/gm))
    if (rows.has(m[1])) problems.push(`${DECISIONS}/README.md lists ${m[1]} twice`);
    else rows.set(m[1], m[2]);
  for (const [n, adr] of adrs) {
    const row = rows.get(n);
    if (row === undefined) problems.push(`${DECISIONS}/README.md has no row for ${n}`);
    else if (adr.status !== null && row !== adr.status)
      problems.push(`${DECISIONS}/README.md says ${n} is "${row}", ${adr.file} says "${adr.status}"`);
  }
  for (const n of rows.keys()) if (!adrs.has(n)) problems.push(`${DECISIONS}/README.md lists ${n}, which has no file`);
  return problems;
}

const TEST_FILE = /\.(test\.tsx?|spec\.ts)$/;

/**
 * What one "proved by" cell names: each test file (a path or its end) with the titles given after `›`, in
 * order; a title before any file is looked for in every test. Parenthesised remarks are not names.
 */
export function provedByNames(cell) {
  let text = cell;
  for (let prev = ''; prev !== text; ) [prev, text] = [text, text.replace(/\([^()]*\)/g, '')];
  const named = [];
  let current = { file: null, titles: [] };
  for (const m of text.matchAll(/`([^`]+)`|›\s*([^›;`]+)/g)) {
    if (m[1] !== undefined) {
      if (!/\.tsx?$/.test(m[1])) continue;
      current = { file: m[1], titles: [] };
      named.push(current);
    } else {
      const title = m[2]
        .split('…')[0]
        .trim()
        .replace(/[,\s]+$/, '')
        .replace(/’/g, "'");
      if (title === '') continue;
      if (current.file === null && !named.includes(current)) named.push(current);
      current.titles.push(title);
    }
  }
  return named;
}

/** "Proved by" cells that name a test file or a test title the repository does not hold. */
export function provedByViolations(root) {
  const dir = join(root, RULES);
  if (!existsSync(dir)) return [];
  const tests = sourceFiles(root, ['apps', 'packages'], (name) => TEST_FILE.test(name));
  const texts = new Map();
  // Quotes escaped in the source (`can\'t`) read as written in the title.
  const textOf = (file) => {
    if (!texts.has(file))
      texts.set(
        file,
        readFileSync(join(root, file), 'utf8')
          .replace(/\\(['"`])/g, '$1')
          .replace(/’/g, "'"),
      );
    return texts.get(file);
  };
  const problems = [];
  for (const page of readdirSync(dir).filter((name) => name.endsWith('.md'))) {
    const lines = readFileSync(join(dir, page), 'utf8').split('\n');
    let provedColumn = false;
    lines.forEach((line, i) => {
      if (!line.startsWith('|')) return;
      const cells = line.trim().replace(/\|$/, '');
      const last = cells.slice(cells.lastIndexOf('|') + 1).trim();
      if (/^-+$/.test(last)) return;
      if (!/^\|\s*[A-Z]\d+\s*\|/.test(line)) {
        provedColumn = last === 'proved by';
        return;
      }
      if (!provedColumn) return;
      const at = `${RULES}/${page}:${i + 1}`;
      for (const { file, titles } of provedByNames(last)) {
        const candidates = file === null ? tests : tests.filter((t) => t === file || t.endsWith(`/${file}`));
        if (candidates.length === 0) {
          problems.push(`${at} names a test file that does not exist: ${file}`);
          continue;
        }
        for (const title of titles)
          if (!candidates.some((t) => textOf(t).includes(title)))
            problems.push(`${at} names a test that does not exist: ${file ?? 'any test'} › ${title}`);
      }
    });
  }
  return problems;
}

/** Every broken docs link, as readable lines. */
export function docsViolations(root) {
  return [...decisionViolations(root), ...provedByViolations(root)];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = docsViolations(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('docs: ADR links answered both ways, index statuses as in the files, every proved-by test exists');
}
