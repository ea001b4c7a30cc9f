import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { importsProjectFile, registerSourceFile } from '../../src/analysis';
import { fixture } from '../ruleTester';
import { parse } from './parse';

const CLI = fixture('dynamic-imports/src/cli.js');

/** Parses `code` as the fixture's cli.js and asks about its one `import(…)`. */
function ask(code: string, filename: string | null = CLI): boolean {
  const parsed = parse(code, 'cli.js');
  if (filename) registerSourceFile(parsed.sourceCode, filename);
  const [node] = parsed.all(AST_NODE_TYPES.ImportExpression);
  assert.ok(node, 'the case has an import()');
  return importsProjectFile(parsed.sourceCode, node);
}

describe('importsProjectFile', () => {
  it('a relative specifier that resolves to a file of the project, with or without its extension', () => {
    assert.equal(ask("import('./log/logger.js');"), true);
    assert.equal(ask("import('./log/logger');"), true);
  });
  it('a template under a folder of the project', () => {
    assert.equal(ask('import(`./plugins/${name}`);'), true);
  });
  it('not a file that is missing, a package, a built-in, a computed specifier or a folder that is missing', () => {
    assert.equal(ask("import('./log/missing.js');"), false);
    assert.equal(ask("import('pino');"), false);
    assert.equal(ask("import('node:fs');"), false);
    assert.equal(ask('import(name);'), false);
    assert.equal(ask('import(`${base}/plugins/x.js`);'), false);
    assert.equal(ask('import(`./handlers/${name}`);'), false);
  });
  it('not when the linted file has no known path', () => {
    assert.equal(ask("import('./log/logger.js');", null), false);
  });
});
