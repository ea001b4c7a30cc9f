import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  createChainAnalysis, createSleepAnalysis, DEFAULT_BLOCKING_OPTIONS, importedFunction,
  moduleSourceCode, promiseOrigin, registerSourceFile,
} from '../../src/analysis';
import { resetProject, setOverlay } from '../../src/project';
import { scratch, write } from '../project/helpers';
import type { Parsed } from './parse';
import { parse } from './parse';

// Every cache that summarises a project module: the linted a.ts imports b.ts, which imports c.ts.
// An edit of c.ts leaves b.ts's text, and so its parse, as it was; the next lint of the unchanged
// a.ts must still see it.
const root = scratch('module-freshness');
write(path.join(root, 'package.json'), '{"name":"app"}');

/** A lint of `file` as ESLint runs one: a fresh parse of the saved text, registered by the rules. */
function lint(file: string, text: string): Parsed {
  const at = path.join(root, file);
  const parsed = parse(text, path.basename(at));
  registerSourceFile(parsed.sourceCode, at);
  return parsed;
}

function module(dir: string, files: Record<string, string>): (file: string) => string {
  for (const [file, text] of Object.entries(files)) write(path.join(root, dir, file), text);
  return (file) => path.join(root, dir, file);
}

describe('answers about modules two imports away', () => {
  resetProject();

  it('sleep helpers: a helper stops sleeping when the module it calls stops', () => {
    const a = "import { work } from './b';\nexport async function run() { await work(); }\n";
    const at = module('sleeps', {
      'a.ts': a,
      'b.ts': "import { pause } from './c';\nexport async function work() { await pause(100); }\n",
      'c.ts': 'export function pause(ms: number) { return new Promise((r) => setTimeout(r, ms)); }\n',
    });
    const sites = (): number => {
      const parsed = lint('sleeps/a.ts', a);
      const callee = parsed.find('CallExpression' as TSESTree.AST_NODE_TYPES.CallExpression, 'work()').callee;
      return createSleepAnalysis(parsed.sourceCode).calleeSites(callee)?.sites.length ?? 0;
    };
    assert.equal(sites(), 1);
    setOverlay(at('c.ts'), 'export function pause(ms: number) { return Promise.resolve(ms); }\n');
    assert.equal(sites(), 0);
    setOverlay(at('c.ts'), null);
    assert.equal(sites(), 1);
  });

  it('blocking chains: a chain ends when the module at its end stops blocking', () => {
    const a = "import { save } from './b';\nexport async function handle() { save(); }\n";
    const at = module('blocking', {
      'a.ts': a,
      'b.ts': "import { store } from './c';\nexport function save() { store(); }\n",
      'c.ts': "import * as fs from 'fs';\nexport function store() { fs.writeFileSync('x', 'y'); }\n",
    });
    const links = (): number => {
      const parsed = lint('blocking/a.ts', a);
      const call = parsed.find('CallExpression' as TSESTree.AST_NODE_TYPES.CallExpression, 'save()');
      return createChainAnalysis(parsed.sourceCode, DEFAULT_BLOCKING_OPTIONS, null).importedChain(call)?.links.length ?? 0;
    };
    assert.equal(links(), 2);
    setOverlay(at('c.ts'), 'export function store() { return 1; }\n');
    assert.equal(links(), 0);
    setOverlay(at('c.ts'), null);
    assert.equal(links(), 2);
  });

  it("module functions: a module's callee follows the module it imports, saved or only in the editor", () => {
    const a = "import { save } from './b';\nsave();\n";
    const at = module('functions', {
      'a.ts': a,
      'b.ts': "import { store } from './c';\nimport { other } from './ghost';\nexport function save() { store(); other(); }\n",
      'c.ts': 'export function store() { return 1; }\n',
    });
    const bCallee = (name: string): { b: NonNullable<ReturnType<typeof moduleSourceCode>>; callee: TSESTree.Node } => {
      lint('functions/a.ts', a);
      const b = moduleSourceCode(at('b.ts'));
      assert.ok(b);
      const save = b.ast.body[2];
      assert.ok(save?.type === 'ExportNamedDeclaration' && save.declaration?.type === 'FunctionDeclaration');
      const call = save.declaration.body.body.map((s) => (s.type === 'ExpressionStatement' ? s.expression : null))
        .find((e) => e?.type === 'CallExpression' && e.callee.type === 'Identifier' && e.callee.name === name);
      assert.ok(call?.type === 'CallExpression');
      return { b, callee: call.callee };
    };
    const found = (name: string): string | null => {
      const { b, callee } = bCallee(name);
      const fn = importedFunction(b, callee);
      return fn ? `${path.basename(fn.file)}:${fn.name}` : null;
    };
    assert.equal(found('store'), 'c.ts:store');
    setOverlay(at('c.ts'), 'export const store = 1;\n');
    assert.equal(found('store'), null);
    setOverlay(at('c.ts'), null);
    assert.equal(found('store'), 'c.ts:store');
    // `./ghost` exists only in the editor, then not at all.
    assert.equal(found('other'), null);
    setOverlay(at('ghost.ts'), 'export function other() { return 2; }\n');
    assert.equal(found('other'), 'ghost.ts:other');
    setOverlay(at('ghost.ts'), null);
    assert.equal(found('other'), null);
  });

  it("rejections: an imported function's promise follows the module it returns from", () => {
    const a = "import { load } from './b';\nload();\n";
    const at = module('rejections', {
      'a.ts': a,
      'b.ts': "import { fetchIt } from './c';\nexport function load() { return fetchIt(); }\n",
      'c.ts': "export async function fetchIt() { throw new Error('down'); }\n",
    });
    const origin = (): string | null => {
      const parsed = lint('rejections/a.ts', a);
      const found = promiseOrigin(parsed.sourceCode, parsed.find('CallExpression' as TSESTree.AST_NODE_TYPES.CallExpression, 'load()'));
      return found ? `${found.kind}:${found.kind === 'imported' ? String(found.canReject) : ''}` : null;
    };
    assert.equal(origin(), 'imported:true');
    setOverlay(at('c.ts'), 'export function fetchIt() { return 1; }\n');
    assert.equal(origin(), null);
    setOverlay(at('c.ts'), null);
    assert.equal(origin(), 'imported:true');
  });
});
