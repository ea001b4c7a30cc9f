import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const requireFromHere = createRequire(__filename);
const RULES = ['release-in-finally', 'no-sleep-holding-permit', 'no-blocking-in-async', 'no-orphaned-promise', 'no-unbounded-fan-out'];

describe('plugin object', () => {
  it('require() returns the plugin object itself, not { default }', () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    assert.equal(plugin.meta.name, 'eslint-plugin-async-hazards');
    assert.match(plugin.meta.version, /^\d+\.\d+\.\d+/);
    assert.equal(plugin.default, undefined);
    assert.deepEqual(Object.keys(plugin.rules).sort(), [...RULES].sort());
  });

  it('import() default is the same object as require()', async () => {
    const imported = (await import('eslint-plugin-async-hazards')).default;
    assert.equal(imported, requireFromHere('eslint-plugin-async-hazards'));
  });

  it('recommended turns every rule on at error and registers the plugin as async-hazards', () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    const config = plugin.configs.recommended;
    assert.equal(config.plugins['async-hazards'], plugin);
    for (const rule of RULES) assert.equal(config.rules[`async-hazards/${rule}`], 'error');
    assert.equal(config.languageOptions.parser, requireFromHere('@typescript-eslint/parser'));
    assert.equal(config.languageOptions.parserOptions, undefined);
  });

  it('recommended-type-checked adds the project service', () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    const config = plugin.configs['recommended-type-checked'];
    assert.deepEqual(config.languageOptions.parserOptions, { projectService: true });
    assert.deepEqual(config.rules, plugin.configs.recommended.rules);
  });

  it('strict and strict-type-checked are the same rules with the strict preset; all is strict', () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    const strict = plugin.configs.strict;
    const strictTyped = plugin.configs['strict-type-checked'];
    assert.deepEqual(strict.rules, plugin.configs.recommended.rules);
    assert.deepEqual(strict.settings, { 'async-hazards': { preset: 'strict' } });
    assert.deepEqual(strictTyped.settings, strict.settings);
    assert.deepEqual(strictTyped.languageOptions.parserOptions, { projectService: true });
    assert.deepEqual(plugin.configs.all.settings, strict.settings);
    assert.equal(plugin.configs.recommended.settings, undefined, 'recommended is the preset with no setting');
  });

  it('every rule has a docs URL that points at its page shipped in the package', () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    for (const [name, rule] of Object.entries<{ meta: { docs: { url: string } } }>(plugin.rules)) {
      assert.ok(rule.meta.docs.url.endsWith(`/eslint-plugin/docs/rules/${name}.md`), rule.meta.docs.url);
    }
  });

  it('lints TypeScript and JavaScript through the recommended config with real ESLint', async () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    const eslint = new ESLint({
      cwd: path.join(__dirname, 'fixtures'),
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended],
    });
    const [ts] = await eslint.lintText('const x: number = 1;\nexport default x;\n', { filePath: 'a.ts' });
    const [js] = await eslint.lintText('export const y = 1;\n', { filePath: 'b.mjs' });
    assert.equal(ts?.fatalErrorCount, 0);
    assert.equal(js?.fatalErrorCount, 0);
  });

  it('runs on ESLint\'s default parser too: no type services is no types, never a crash', async () => {
    const plugin = requireFromHere('eslint-plugin-async-hazards');
    const rules = Object.fromEntries(RULES.map((r) => [`async-hazards/${r}`, 'error' as const]));
    const eslint = new ESLint({
      cwd: path.join(__dirname, 'fixtures'),
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.js'], plugins: { 'async-hazards': plugin }, rules }],
    });
    const code = [
      "import { readFileSync } from 'node:fs';",
      'export async function load(p) {',
      "  return readFileSync(p, 'utf8');",
      '}',
      "export async function send() { await fetch('https://example.com'); }",
      'send();',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: 'espree.js' });
    assert.equal(result?.fatalErrorCount, 0);
    assert.deepEqual(result?.messages.map((m) => m.ruleId).sort(), ['async-hazards/no-blocking-in-async', 'async-hazards/no-orphaned-promise']);
  });
});
