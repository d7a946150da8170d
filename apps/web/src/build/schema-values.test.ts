// @vitest-environment node
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The browser build replaces zod with an inert stand-in (zod-stub.ts, ADRs 0010 and 0116): a contract schema used
 * as a value on the web would silently do nothing (`schema.options` is not the enum's options, a refine never
 * runs). This test asks the type checker about every expression of the web app's code and fails on one whose
 * type is a zod schema, so such a use is caught before it ships. Types (`z.infer<typeof x>`) are fine.
 */

const webRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A probe compiled with the app: two schema values the check must find, so a check that finds nothing
 * because it stopped working fails too.
 */
const probePath = `${webRoot}src/build/schema-values-probe.ts`;
const probeSource = [
  "import { authEndpoints, loginRequest } from '@ohgood/contract/auth';",
  'export const fields = loginRequest.shape;',
  'export const answer = authEndpoints.login.response;',
  "export const multipart = authEndpoints.login.method === 'POST';",
].join('\n');

function webProgram(): ts.Program {
  const configPath = `${webRoot}tsconfig.json`;
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, webRoot);
  // The app's own code; tests and e2e may use real zod types freely (they never ship).
  const shipped = parsed.fileNames.filter(
    (file) => file.includes('/src/') && !/\.test\.tsx?$/.test(file) && !file.includes('/src/test/'),
  );
  const options = { ...parsed.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) =>
    fileName === probePath
      ? ts.createSourceFile(fileName, probeSource, language)
      : readSource(fileName, language, ...rest);
  host.fileExists = (
    (exists) => (fileName: string) =>
      fileName === probePath || exists(fileName)
  )(host.fileExists);
  return ts.createProgram([...shipped, probePath], options, host);
}

/** True when the type (undefined and null aside) is a zod schema: zod 4 schemas carry `_zod` internals. */
function isSchemaType(checker: ts.TypeChecker, type: ts.Type): boolean {
  const nonNullable = checker.getNonNullableType(type);
  // A union with anything else (`ZodType | 'multipart'`) is compared, not used as a schema.
  if (nonNullable.isUnion()) return false;
  return checker.getPropertyOfType(checker.getApparentType(nonNullable), '_zod') !== undefined;
}

function isInTypePosition(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isTypeNode(at) || ts.isImportDeclaration(at) || ts.isExportDeclaration(at)) return true;
  }
  return false;
}

/** The name a declaration introduces (`const x = …`): its initializer is what gets checked. */
function isDeclaredName(node: ts.Identifier): boolean {
  const parent = node.parent;
  const named =
    ts.isVariableDeclaration(parent) ||
    ts.isParameter(parent) ||
    ts.isBindingElement(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent);
  return named && parent.name === node;
}

/** `file:line: text` of every expression in shipped web code whose value is a zod schema. */
function schemaValueUses(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(`${webRoot}src/`)) continue;
    const visit = (node: ts.Node): void => {
      const expression =
        (ts.isIdentifier(node) && !isDeclaredName(node)) ||
        ts.isPropertyAccessExpression(node) ||
        ts.isCallExpression(node);
      if (expression && !isInTypePosition(node) && isSchemaType(checker, checker.getTypeAtLocation(node))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${source.fileName.slice(webRoot.length)}:${line + 1}: ${node.getText(source)}`);
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('contract schemas on the web', () => {
  it('are never used as values: the browser has no zod, only an inert stand-in', { timeout: 180_000 }, () => {
    const uses = schemaValueUses(webProgram());
    const probe = uses.filter((use) => use.startsWith('src/build/schema-values-probe.ts'));
    expect(probe).toEqual([
      'src/build/schema-values-probe.ts:2: loginRequest',
      'src/build/schema-values-probe.ts:3: authEndpoints.login.response',
    ]);
    expect(uses.filter((use) => !probe.includes(use))).toEqual([]);
  });
});
