import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from '@typescript-eslint/typescript-estree';
import { importRecords } from '../../src/project/importRecords';

const PROJECT = path.join(__dirname, '../../src/project');
const SRC = path.dirname(PROJECT);

// The lint config forbids these imports too; this test also catches `require` and `import()`.
describe('the project layer', () => {
  it('imports only itself, Node and packages: never analysis, rules or util', () => {
    const files = fs.readdirSync(PROJECT).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('index.ts') && files.length >= 5, `found ${files.join(', ')}`);
    const escapes: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(PROJECT, file), 'utf8');
      for (const record of importRecords(parse(text, { range: true, loc: true }), text)) {
        if (!record.specifier.startsWith('.')) continue;
        const target = path.resolve(PROJECT, record.specifier);
        if (path.relative(PROJECT, target).startsWith('..')) escapes.push(`${file}: ${record.specifier} (${path.relative(SRC, target)})`);
      }
    }
    assert.deepEqual(escapes, []);
  });
});
