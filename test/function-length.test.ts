import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** A function longer than this is read in pieces; it is split into named parts instead. */
const MAX_LINES = 120;
const FOLDERS = ['core', 'ports', 'adapters', 'bootstrap', 'config', 'web/src', 'scripts', 'test'];

/**
 * Functions that are one data table or one schema, however long: a list read entry by entry, not a flow to follow.
 * Each names why it may be long.
 */
const TABLES: Readonly<Record<string, string>> = {
  'adapters/http/routes/household-transfer.ts documentSchema': 'the valibot schema of a household document, one entry a field',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(p);
    return /\.tsx?$/.test(p) && !p.endsWith('.d.ts') ? [p] : [];
  });
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/**
 * A test suite's body (the callback of describe or of a suite kit, or a contract builder that only declares describe and it blocks) is
 * a list of tests, not a function one reads through: each test inside it is held to the limit on its own.
 */
function isSuite(node: ts.Node, name: string): boolean {
  const parent = node.parent;
  // describe(...), describe.skip(...), (pgUrl ? describe : describe.skip)(...), and the kits' httpSuite(...),
  // browserSuite(...) and eachDatabase(...) (a describe for each database).
  if (ts.isCallExpression(parent) && /\b(describe|context)\b|Suite$|^eachDatabase$/.test(parent.expression.getText())) return true;
  return /Contract$|Suite$/.test(name) && node.getSourceFile().fileName.startsWith('test/');
}

interface Long {
  readonly where: string;
  readonly lines: number;
}

function longFunctions(file: string, text = readFileSync(file, 'utf8')): Long[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Long[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line + 2 - first;
      const name = nameOf(node);
      const where = `${file}:${first} ${name}`;
      if (lines > MAX_LINES && !isSuite(node, name) && !(`${file} ${name}` in TABLES)) found.push({ where, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it(`no function outside a data table or a test suite's list of tests is longer than ${MAX_LINES} lines`, () => {
    const files = FOLDERS.flatMap(sources);
    expect(files.length).to.be.above(300);
    const long = files.flatMap((file) => longFunctions(file)).map((l) => `${l.where} (${l.lines} lines)`);
    expect(long).to.deep.equal([]);
  });

  it('the walk finds a long function, a long arrow inside a call and a long test, and passes a long suite', () => {
    // A check that finds nothing must be able to find something: the walk itself, on a file made here.
    const body = (n: number) => Array.from({ length: n }, (_, i) => `    const v${i} = ${i};`).join('\n');
    const text = [
      `export function long() {\n${body(MAX_LINES)}\n}`,
      `export function short() {\n${body(MAX_LINES - 2)}\n}`,
      `const table = [1].map(() => {\n${body(MAX_LINES)}\n});`,
      `describe('a suite', () => {\n  it('a long test', () => {\n${body(MAX_LINES)}\n  });\n${body(10)}\n});`,
    ].join('\n');
    const found = longFunctions('src/probe.ts', text).map((l) => `${l.where} ${l.lines}`);
    expect(found).to.deep.equal([
      `src/probe.ts:1 long ${MAX_LINES + 2}`,
      `src/probe.ts:${2 * MAX_LINES + 3} (callback of [1].map) ${MAX_LINES + 2}`,
      `src/probe.ts:${3 * MAX_LINES + 6} (callback of it) ${MAX_LINES + 2}`,
    ]);
  });
});
