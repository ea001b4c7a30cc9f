import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { functionName, isFunctionNode, isStartupPhase, moduleSourceCode, walk } from '../../src/analysis';
import { scratch, write } from '../project/helpers';

// A start script awaits first() at its top level, which awaits second(), third(), fourth(), each in
// its own file; second() and fourth() read a file. Each test lays out its own copy, marked with its
// prefix (modules of the same text share one parse, and the answers cached on it).
function chain(prefix: string): string {
  const root = scratch(prefix);
  write(path.join(root, 'package.json'), JSON.stringify({ name: 'app', type: 'module', scripts: { start: 'node src/main.js' } }));
  write(path.join(root, 'src/main.js'), `// ${prefix}\nimport { first } from './first.js';\nawait first();\n`);
  const names = ['first', 'second', 'third', 'fourth'];
  names.forEach((name, i) => {
    const next = names[i + 1];
    const reads = name === 'second' || name === 'fourth';
    write(path.join(root, `src/${name}.js`), [
      `// ${prefix}`,
      "import fs from 'node:fs';",
      next ? `import { ${next} } from './${next}.js';` : '',
      `export async function ${name}() {`,
      reads ? "  fs.readFileSync('a');" : '',
      next ? `  await ${next}();` : '',
      '}',
      '',
    ].join('\n'));
  });
  return root;
}

/** Is the first call of function `name`, in `file`, startup? */
function phaseOf(root: string, file: string, name = file): boolean {
  const sourceCode = moduleSourceCode(path.join(root, `src/${file}.js`));
  assert.ok(sourceCode);
  let fn = null as FunctionNode | null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (!fn && isFunctionNode(node) && functionName(node) === name) fn = node;
    return !fn;
  });
  assert.ok(fn);
  const found: FunctionNode = fn;
  let call = null as TSESTree.Node | null;
  walk(found.body, sourceCode.visitorKeys, (node) => {
    if (!call && node.type === AST_NODE_TYPES.CallExpression) call = node;
    return !call;
  });
  assert.ok(call);
  return isStartupPhase(sourceCode, found, call);
}

describe('isStartupPhase across a chain of files', () => {
  it('startup two files from the top-level await; not known past the depth followed', () => {
    const root = chain('phase-alone');
    assert.equal(phaseOf(root, 'second'), true);
    assert.equal(phaseOf(chain('phase-alone-deep'), 'fourth'), false);
  });
  it('answers the same whichever function is asked first', () => {
    // fourth()'s walk reaches second() where the depth runs out; that cut-off is not second()'s
    // answer when second.js is linted next, nor is second()'s answer what fourth()'s walk finds.
    const deepFirst = chain('phase-deep-first');
    const fourthFirst = [phaseOf(deepFirst, 'fourth'), phaseOf(deepFirst, 'second')];
    const shallowFirst = chain('phase-shallow-first');
    const secondFirst = [phaseOf(shallowFirst, 'second'), phaseOf(shallowFirst, 'fourth')];
    assert.deepEqual(fourthFirst, [false, true]);
    assert.deepEqual(secondFirst, [true, false]);
  });
  it('a call cycle is not startup, whichever of its functions is asked first', () => {
    const lay = (prefix: string): string => {
      const root = scratch(prefix);
      write(path.join(root, 'package.json'), JSON.stringify({ name: 'app', type: 'module', scripts: { start: 'node src/main.js' } }));
      write(path.join(root, 'src/main.js'), `// ${prefix}\nimport { ping } from './cycle.js';\nawait ping(3);\n`);
      write(path.join(root, 'src/cycle.js'), [
        `// ${prefix}`,
        "import fs from 'node:fs';",
        'export async function ping(n) { fs.readFileSync(\'a\'); if (n > 0) await pong(n - 1); }',
        'async function pong(n) { fs.readFileSync(\'b\'); await ping(n); }',
        '',
      ].join('\n'));
      return root;
    };
    const a = lay('phase-cycle-a');
    const pingFirst = [phaseOf(a, 'cycle', 'ping'), phaseOf(a, 'cycle', 'pong')];
    const b = lay('phase-cycle-b');
    const pongFirst = [phaseOf(b, 'cycle', 'pong'), phaseOf(b, 'cycle', 'ping')];
    assert.deepEqual(pingFirst, [pongFirst[1], pongFirst[0]]);
  });
  it('a callback a constructor runs from its listen callback: the same answers whichever class is asked first', () => {
    // main.js's listen callback builds Keeper and Tail; Ident runs its callback once (as its own
    // server listens), Watcher on a timer: Keeper's init() is startup, Tail's is not.
    const lay = (prefix: string): string => {
      const root = scratch(prefix);
      write(path.join(root, 'package.json'), JSON.stringify({ name: 'app', type: 'module', scripts: { start: 'node src/main.js' } }));
      write(path.join(root, 'src/main.js'), [
        `// ${prefix}`,
        "import http from 'node:http';",
        "import Ident from './ident.js';",
        "import Watcher from './watcher.js';",
        "import Keeper from './keeper.js';",
        "import Tail from './tail.js';",
        'const server = http.createServer();',
        'server.listen(8080, () => {',
        '  const keeper = new Keeper();',
        '  new Ident(() => { void keeper.init(); });',
        '  const tail = new Tail();',
        '  new Watcher(() => { void tail.init(); });',
        '});',
        '',
      ].join('\n'));
      write(path.join(root, 'src/ident.js'), `// ${prefix}\nimport net from 'node:net';\nexport default class Ident {\n  constructor(done) {\n    const s = net.createServer();\n    s.listen(113, () => done());\n  }\n}\n`);
      write(path.join(root, 'src/watcher.js'), `// ${prefix}\nexport default class Watcher {\n  constructor(done) {\n    setInterval(() => done(), 1000);\n  }\n}\n`);
      for (const name of ['keeper', 'tail']) {
        const cls = name === 'keeper' ? 'Keeper' : 'Tail';
        write(path.join(root, `src/${name}.js`), `// ${prefix}\nimport fs from 'node:fs';\nexport default class ${cls} {\n  async init() {\n    fs.readFileSync('a');\n  }\n}\n`);
      }
      return root;
    };
    const a = lay('phase-ctor-a');
    const keeperFirst = [phaseOf(a, 'keeper', 'init'), phaseOf(a, 'tail', 'init')];
    const b = lay('phase-ctor-b');
    const tailFirst = [phaseOf(b, 'tail', 'init'), phaseOf(b, 'keeper', 'init')];
    assert.deepEqual(keeperFirst, [true, false]);
    assert.deepEqual(tailFirst, [false, true]);
  });
});
