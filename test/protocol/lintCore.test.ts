// The shared lint core (server/src/lint.ts), called directly: what the server and the CLI build on.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { importersOf, isReadCurrent, parsedModule, resolveImport, setOverlay } from 'eslint-plugin-async-hazards/project';
import type { LintNotice, OpenDocument } from '../../server/src/lint';
import { createLinter } from '../../server/src/lint';
import { ALIASED_CONFIG, FAILING_CONFIG, HAZARDS_TS, makeFolder } from './fixtures';

describe('lint core', () => {
  let plain: ReturnType<typeof makeFolder>;
  let configured: ReturnType<typeof makeFolder>;
  let broken: ReturnType<typeof makeFolder>;
  before(() => {
    plain = makeFolder('core-plain', { 'a.ts': HAZARDS_TS });
    configured = makeFolder('core-configured', { 'a.ts': HAZARDS_TS, 'eslint.config.mjs': ALIASED_CONFIG });
    broken = makeFolder('core-broken', { 'a.ts': HAZARDS_TS, 'eslint.config.mjs': FAILING_CONFIG });
  });
  after(() => {
    plain.remove();
    configured.remove();
    broken.remove();
  });

  it('runs every recommended rule with no config and no node_modules', async () => {
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off' });
    const result = await linter.lintText(HAZARDS_TS, path.join(plain.dir, 'a.ts'));
    assert.deepEqual(
      result.messages.map((m) => [m.ruleId, m.line]),
      [
        ['async-hazards/no-blocking-in-async', 7],
        ['async-hazards/no-orphaned-promise', 13],
        ['async-hazards/release-in-finally', 17],
        ['async-hazards/no-unbounded-fan-out', 23],
      ],
    );
    assert.equal(result.config.status, 'none');
    const release = result.messages.find((m) => m.ruleId === 'async-hazards/release-in-finally');
    assert.ok(release?.evidence.some((e) => e.line === 17), 'evidence points at the acquire');
  });

  it('reads the unsaved text, not the file on disk', async () => {
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off' });
    const result = await linter.lintText('export const x = 1;\n', path.join(plain.dir, 'a.ts'));
    assert.deepEqual(result.messages, []);
  });

  it('follows a trusted config under any alias, and ignores it when untrusted', async () => {
    const file = path.join(configured.dir, 'a.ts');
    const trusted = await createLinter({ cwd: configured.dir, trusted: true, typeAware: 'off' }).lintText(HAZARDS_TS, file);
    assert.equal(trusted.config.alias, 'hazards');
    assert.ok(!trusted.messages.some((m) => m.ruleId === 'async-hazards/no-blocking-in-async'));
    assert.equal(trusted.messages.find((m) => m.ruleId === 'async-hazards/no-orphaned-promise')?.severity, 1);
    const untrusted = await createLinter({ cwd: configured.dir, trusted: false, typeAware: 'off' }).lintText(HAZARDS_TS, file);
    assert.equal(untrusted.config.status, 'untrusted');
    assert.ok(untrusted.messages.some((m) => m.ruleId === 'async-hazards/no-blocking-in-async'));
  });

  it('settings win over the workspace config', async () => {
    const linter = createLinter({ cwd: configured.dir, trusted: true, typeAware: 'off', rules: { 'no-blocking-in-async': 'warn', 'release-in-finally': 'off' } });
    const result = await linter.lintText(HAZARDS_TS, path.join(configured.dir, 'a.ts'));
    assert.equal(result.messages.find((m) => m.ruleId === 'async-hazards/no-blocking-in-async')?.severity, 1);
    assert.ok(!result.messages.some((m) => m.ruleId === 'async-hazards/release-in-finally'));
  });

  it('falls back to the defaults when the trusted config throws, and says so once', async () => {
    const notices: LintNotice[] = [];
    const linter = createLinter({ cwd: broken.dir, trusted: true, typeAware: 'off', onNotice: (n) => void notices.push(n) });
    const first = await linter.lintText(HAZARDS_TS, path.join(broken.dir, 'a.ts'));
    await linter.lintText(HAZARDS_TS, path.join(broken.dir, 'a.ts'));
    assert.equal(first.config.status, 'failed');
    assert.equal(first.messages.length, 4);
    assert.equal(notices.filter((n) => n.kind === 'configFailed').length, 1);
  });

  it('switches a throwing rule off for the rest of the file in the same pass, and keeps the other rules', async () => {
    const notices: LintNotice[] = [];
    const seen = { identifiers: [] as string[], programs: 0, crashedExits: 0 };
    const standIn = {
      meta: { name: 'eslint-plugin-async-hazards' },
      rules: {
        // Reports the first identifier, throws on `crash`: the early report must not survive.
        'release-in-finally': {
          meta: { type: 'problem', schema: [], messages: { early: 'reported before the crash' } },
          create: (context: { report(d: object): void }) => ({
            Identifier(node: { name: string }) {
              seen.identifiers.push(node.name);
              if (seen.identifiers.length === 1) context.report({ node, messageId: 'early' });
              if (node.name === 'crash') throw new Error('listener bug');
            },
            'Program:exit'() {
              seen.crashedExits++;
            },
          }),
        },
        'no-blocking-in-async': {
          meta: { type: 'problem', schema: [], messages: {} },
          create: () => {
            throw new Error('create bug');
          },
        },
        'no-orphaned-promise': {
          meta: { type: 'problem', schema: [], messages: { found: 'call found' } },
          create: (context: { report(d: object): void }) => ({
            Program() {
              seen.programs++;
            },
            CallExpression(node: object) {
              context.report({ node, messageId: 'found' });
            },
          }),
        },
      },
    };
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off', plugin: standIn, onNotice: (n) => void notices.push(n) });
    const file = path.join(plain.dir, 'b.ts');
    const result = await linter.lintText('const before = 1;\nconst crash = 1;\nconst after = 2;\nrun();\nwalk();\n', file);

    assert.deepEqual([...result.crashedRules].sort(), ['async-hazards/no-blocking-in-async', 'async-hazards/release-in-finally']);
    assert.deepEqual(result.messages.map((m) => [m.ruleId, m.line]), [['async-hazards/no-orphaned-promise', 4], ['async-hazards/no-orphaned-promise', 5]]);
    assert.equal(seen.programs, 1, 'one ESLint pass, not one per crash');
    assert.deepEqual(seen.identifiers, ['before', 'crash'], 'no listener of the crashed rule runs after its throw');
    assert.equal(seen.crashedExits, 0);
    const crashNotices = notices.filter((n) => n.kind === 'ruleCrashed');
    assert.deepEqual(
      crashNotices.map((n) => [n.ruleId, n.filePath, n.error.message]).sort(),
      [['async-hazards/no-blocking-in-async', file, 'create bug'], ['async-hazards/release-in-finally', file, 'listener bug']],
    );

    // The next file starts with every rule on again; the user was told already.
    const again = await linter.lintText('const crash = 2;\nrun();\n', file);
    assert.ok(again.crashedRules.includes('async-hazards/release-in-finally'));
    assert.deepEqual(seen.identifiers.slice(2), ['crash'], 'the crashed rule ran again on the next text');
    assert.equal(notices.filter((n) => n.kind === 'ruleCrashed').length, 2);
  });

  it('leaves a rule that crashes while fixing out of the fixes, and keeps the others', async () => {
    const notices: LintNotice[] = [];
    const standIn = {
      meta: { name: 'eslint-plugin-async-hazards' },
      rules: {
        'release-in-finally': {
          meta: { type: 'problem', fixable: 'code', schema: [], messages: { bad: 'bad' } },
          create: (context: { report(d: object): void }) => ({
            Identifier(node: { name: string; range: [number, number] }) {
              context.report({ node, messageId: 'bad', fix: (fixer: { insertTextBefore(n: object, t: string): object }) => fixer.insertTextBefore(node, 'BROKEN_') });
              if (node.name === 'crash') throw new Error('rule bug');
            },
          }),
        },
        'no-orphaned-promise': {
          meta: { type: 'problem', fixable: 'code', schema: [], messages: { found: 'found' } },
          create: (context: { report(d: object): void }) => ({
            'ExpressionStatement > CallExpression'(node: object) {
              context.report({ node, messageId: 'found', fix: (fixer: { insertTextBefore(n: object, t: string): object }) => fixer.insertTextBefore(node, 'void ') });
            },
          }),
        },
      },
    };
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off', plugin: standIn, onNotice: (n) => void notices.push(n) });
    const { output, fixed } = await linter.fixText('run(crash);\n', path.join(plain.dir, 'f.ts'));
    assert.equal(fixed, true);
    assert.equal(output, 'void run(crash);\n');
    assert.equal(notices.filter((n) => n.kind === 'ruleCrashed').length, 1);
  });

  it("lays the open documents' unsaved text over the disk for the project layer, and only theirs", async () => {
    const workspace = makeFolder('core-overlay', { 'db.ts': 'export const pool = 1;\n' });
    after(() => workspace.remove());
    // Reports what the project layer says about each relative import: the file and its exports.
    const standIn = {
      meta: { name: 'eslint-plugin-async-hazards' },
      rules: {
        'no-orphaned-promise': {
          meta: { type: 'problem', schema: [], messages: { seen: '{{seen}}' } },
          create: (context: { filename: string; report(d: object): void }) => ({
            ImportDeclaration(node: { source: { value: string } }) {
              const target = resolveImport(context.filename, node.source.value);
              const module = target.kind === 'file' ? parsedModule(target.path) : null;
              const exported = module?.program.body.flatMap((s) =>
                s.type === 'ExportNamedDeclaration' && s.declaration?.type === 'VariableDeclaration'
                  ? s.declaration.declarations.map((d) => (d.id.type === 'Identifier' ? d.id.name : '?'))
                  : [],
              );
              const seen = module ? `${path.basename(module.path)}: ${exported?.join(', ')}` : 'unresolved';
              context.report({ node, messageId: 'seen', data: { seen } });
            },
          }),
        },
      },
    };
    let open: OpenDocument[] = [];
    const linter = createLinter({ cwd: workspace.dir, typeAware: 'off', plugin: standIn, openDocuments: () => open });
    const file = path.join(workspace.dir, 'a.ts');
    const text = "import { pool } from './db';\nimport { cache } from './cache';\n";
    const seen = async (): Promise<string[]> => (await linter.lintText(text, file)).messages.map((m) => m.message);

    assert.deepEqual(await seen(), ['db.ts: pool', 'unresolved']);
    open = [
      { filePath: path.join(workspace.dir, 'db.ts'), text: 'export const pool = 1;\nexport const limiter = 2;\n' },
      { filePath: path.join(workspace.dir, 'cache.ts'), text: 'export const cache = new Map();\n' },
      { filePath: file, text },
    ];
    assert.deepEqual(await seen(), ['db.ts: pool, limiter', 'cache.ts: cache'], 'unsaved edits and a new unsaved file');
    open = [{ filePath: file, text }];
    assert.deepEqual(await seen(), ['db.ts: pool', 'unresolved'], 'closed documents fall back to the disk');
    // A linter without open documents (the CLI) lays no overlays of its own.
    const cli = createLinter({ cwd: workspace.dir, typeAware: 'off', plugin: standIn });
    assert.deepEqual((await cli.lintText(text, file)).messages.map((m) => m.message), ['db.ts: pool', 'unresolved']);
  });

  it('returns what the project layer read for the run, and records imports for open-document linters', async () => {
    const workspace = makeFolder('core-reads', {
      'package.json': JSON.stringify({ name: 'app', dependencies: { express: '^4.18.0' } }),
      'node_modules/express/package.json': JSON.stringify({ name: 'express', version: '4.21.2' }),
      'src/db.js': 'export const pool = 1;\n',
    });
    after(() => workspace.remove());
    const file = path.join(workspace.dir, 'src', 'app.js');
    const route = "import express from 'express';\nimport { pool } from './db.js';\nconst app = express();\napp.get('/', async (req, res) => {\n  res.send(await pool.query(req.params.id));\n});\n";
    const installed = path.join(workspace.dir, 'node_modules/express/package.json');
    const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

    const cli = createLinter({ cwd: workspace.dir, typeAware: 'off' });
    const result = await cli.lintText(route, file);
    assert.deepEqual(result.messages.map((m) => [m.ruleId, m.line]), [['async-hazards/no-orphaned-promise', 4]]);
    // The rule asked which express runs the route: the installed manifest, by content.
    assert.equal(result.reads.find((r) => r.path === installed)?.state, sha1(JSON.stringify({ name: 'express', version: '4.21.2' })));
    assert.ok(result.reads.every(isReadCurrent));
    // The rules read the module the file imports (module summaries), so the result rests on it too.
    assert.ok(result.reads.some((r) => r.path === path.join(workspace.dir, 'src', 'db.js')), 'the rules read db.js');
    assert.deepEqual(importersOf(path.join(workspace.dir, 'src', 'db.js')), [], 'a linter without open documents indexes nothing');

    const server = createLinter({ cwd: workspace.dir, typeAware: 'off', openDocuments: () => [] });
    const served = await server.lintText(route, file);
    assert.deepEqual(importersOf(path.join(workspace.dir, 'src', 'db.js')), [file]);
    assert.equal(served.reads.find((r) => r.path === path.join(workspace.dir, 'src', 'db.js'))?.state, sha1(fs.readFileSync(path.join(workspace.dir, 'src', 'db.js'), 'utf8')), 'the module was read, not only found');
    setOverlay(installed, JSON.stringify({ name: 'express', version: '5.1.0' }));
    try {
      assert.equal(served.reads.every(isReadCurrent), false, 'an upgraded express makes the result stale');
    } finally {
      setOverlay(installed, null);
    }
  });

  it('gives one fatal message for a parse error', async () => {
    const result = await createLinter({ cwd: plain.dir, typeAware: 'off' }).lintText('const = ;\n', path.join(plain.dir, 'c.ts'));
    assert.equal(result.messages.length, 1);
    assert.equal(result.messages[0]?.fatal, true);
    assert.match(result.messages[0]!.message, /^Parsing error/);
  });

  it('skips binary, oversized and non-JS files', async () => {
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off', maxFileSizeKb: 1 });
    assert.equal((await linter.lintText('a\u0000\u0001b', path.join(plain.dir, 'd.ts'))).skipped?.reason, 'binary');
    assert.equal((await linter.lintText('x'.repeat(2048), path.join(plain.dir, 'd.ts'))).skipped?.reason, 'tooLarge');
    assert.equal((await linter.lintText('x', path.join(plain.dir, 'd.md'))).skipped?.reason, 'unsupported');
  });

  it('applies autofixes only, never suggestions', async () => {
    const linter = createLinter({ cwd: plain.dir, typeAware: 'off' });
    const { output, fixed } = await linter.fixText(HAZARDS_TS, path.join(plain.dir, 'a.ts'));
    assert.equal(fixed, true);
    assert.match(output, /try \{\n {4}await refresh\(\);\n {2}\} finally \{\n {4}release\(\);\n {2}\}/);
    // Suggestions (await readFile, void refresh(), runExclusive) are not applied.
    assert.match(output, /return readFileSync\(path, 'utf8'\);/);
    assert.match(output, /^ {2}refresh\(\); \/\/ line 13/m);
  });
});
