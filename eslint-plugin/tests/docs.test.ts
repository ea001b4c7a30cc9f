import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Linter } from 'eslint';
import plugin from '../src';

const DOCS_DIR = path.join(__dirname, '..', 'docs', 'rules');

/** Every page has these headings, in this order. */
const REQUIRED_HEADINGS = [
  '## Examples',
  '### ❌ Incorrect',
  '### ✅ Correct',
  '## Options',
  '## Fixes and suggestions',
  '## When not to use it',
  '## Related rules',
];

/** Code fence languages that are linted, and the file name each is linted as. */
const LINTED_LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'example.ts',
  typescript: 'example.ts',
  tsx: 'example.tsx',
  mts: 'example.mts',
  cts: 'example.cts',
  js: 'example.js',
  javascript: 'example.js',
  jsx: 'example.jsx',
  mjs: 'example.mjs',
  cjs: 'example.cjs',
};

interface CodeBlock {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The headings the block sits under, outermost first. */
  headings: string[];
}

/** Fenced code blocks with the headings above them. Headings inside fences do not count. */
function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const stack: { level: number; text: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fence) {
      const close = fence[1] as string;
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] as string).startsWith(close); i++) body.push(lines[i] as string);
      blocks.push({ lang: (fence[2] ?? '').toLowerCase(), code: `${body.join('\n')}\n`, line: start + 1, headings: stack.map((h) => h.text) });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
      stack.push({ level, text: heading[2] as string });
    }
  }
  return blocks;
}

/** Headings outside code fences, as written (`## Examples`). */
function headingLines(markdown: string): string[] {
  const result: string[] = [];
  let inFence: string | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^(```+|~~~+)/.exec(line);
    if (fence) {
      if (inFence === null) inFence = fence[1] as string;
      else if (line.startsWith(inFence)) inFence = null;
      continue;
    }
    if (inFence === null && /^#{1,6}\s/.test(line)) result.push(line.trim());
  }
  return result;
}

/** The `description` in the YAML front matter, unquoted. */
function frontMatterDescription(markdown: string): string | null {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) return null;
  const line = (match[1] as string).split('\n').find((l) => l.startsWith('description:'));
  if (!line) return null;
  const raw = line.slice('description:'.length).trim();
  if (raw.startsWith("'") && raw.endsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  if (raw.startsWith('"') && raw.endsWith('"')) return JSON.parse(raw) as string;
  return raw;
}

function lint(block: CodeBlock): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  const filename = LINTED_LANGUAGES[block.lang] as string;
  return linter.verify(block.code, [plugin.configs.recommended as Linter.Config], { filename });
}

function describeMessages(messages: readonly Linter.LintMessage[]): string {
  return messages.map((m) => `${m.line}:${m.column} ${m.ruleId ?? 'fatal'}: ${m.message}`).join('\n') || '(none)';
}

const ruleNames = Object.keys(plugin.rules);

describe('docs pages', () => {
  it('every page belongs to a rule', () => {
    const pages = readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
    for (const page of pages) assert.ok(ruleNames.includes(page), `docs/rules/${page}.md has no rule`);
  });

  it('the package README lists every rule with a link to its page', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    for (const [name, rule] of Object.entries(plugin.rules)) {
      assert.ok(readme.includes(`[\`${name}\`](${rule.meta.docs?.url})`), `README.md: no link to ${name}`);
      assert.ok(readme.includes(`| ${rule.meta.docs?.description} |`), `README.md: description of ${name} differs from meta.docs`);
    }
  });

  for (const [name, rule] of Object.entries(plugin.rules)) {
    describe(name, () => {
      const file = path.join(DOCS_DIR, `${name}.md`);
      let markdown = '';
      try {
        markdown = readFileSync(file, 'utf8');
      } catch {
        // Reported by the first test below; the block tests then have nothing to run.
      }

      it('has a page', () => {
        assert.ok(markdown.length > 0, `missing ${path.relative(process.cwd(), file)}`);
      });

      it('front matter description is meta.docs.description plus a period', () => {
        assert.equal(frontMatterDescription(markdown), `${rule.meta.docs?.description}.`);
      });

      it('has the required headings, in order', () => {
        const headings = headingLines(markdown);
        let from = 0;
        for (const wanted of REQUIRED_HEADINGS) {
          const at = headings.indexOf(wanted, from);
          assert.ok(at !== -1, `${name}.md: missing "${wanted}"${headings.includes(wanted) ? ' (out of order)' : ''}`);
          from = at + 1;
        }
      });

      const blocks = codeBlocks(markdown).filter((b) => b.lang in LINTED_LANGUAGES);
      const incorrect = blocks.filter((b) => b.headings.some((h) => h.startsWith('❌')));
      const correct = blocks.filter((b) => b.headings.some((h) => h.startsWith('✅')));

      it('has at least one incorrect and one correct example', () => {
        assert.ok(incorrect.length > 0, 'no linted code block under a ❌ heading');
        assert.ok(correct.length > 0, 'no linted code block under a ✅ heading');
      });

      for (const block of incorrect) {
        it(`❌ example at line ${block.line} is reported by ${name}`, () => {
          const messages = lint(block);
          assert.ok(!messages.some((m) => m.fatal), describeMessages(messages));
          assert.ok(
            messages.some((m) => m.ruleId === `async-hazards/${name}`),
            `expected a finding from ${name}, got:\n${describeMessages(messages)}`,
          );
        });
      }

      for (const block of correct) {
        it(`✅ example at line ${block.line} has no finding from any rule`, () => {
          const messages = lint(block);
          assert.deepEqual(messages, [], describeMessages(messages));
        });
      }
    });
  }
});
