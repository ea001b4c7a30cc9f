// What the editor should show, computed by running ESLint with the plugin's recommended config
// over the same files: the e2e test checks that the extension shows these findings where ESLint
// puts them, not a list of lines written down by hand.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ESLint, type Linter, type Rule } from 'eslint';
// The built plugin: the same build `npm run package` bundled into the extension.
import plugin from 'eslint-plugin-async-hazards';

export const PLUGIN_PREFIX = 'async-hazards/';

export interface Finding {
  file: string;
  rule: string;
  line: number;
  column: number;
  message: string;
  suggestions: { desc: string; fix: Rule.Fix }[];
}

const linters = new Map<string, ESLint>();

function eslintFor(folder: string): ESLint {
  let eslint = linters.get(folder);
  if (eslint === undefined) {
    eslint = new ESLint({
      cwd: folder,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended as Linter.Config],
      ignore: false,
    });
    linters.set(folder, eslint);
  }
  return eslint;
}

/** The plugin's findings in one file of `folder`, from its current text on disk. */
export async function findingsIn(folder: string, file: string): Promise<Finding[]> {
  const filePath = path.join(folder, file);
  const [result] = await eslintFor(folder).lintText(await fs.readFile(filePath, 'utf8'), { filePath });
  const findings: Finding[] = [];
  for (const message of result?.messages ?? []) {
    // A message without a rule is ESLint itself (parse error, ignored file): the expectation is void.
    if (message.ruleId === null) throw new Error(`ESLint on ${file}:${message.line}: ${message.message}`);
    if (!message.ruleId.startsWith(PLUGIN_PREFIX)) continue;
    findings.push({
      file,
      rule: message.ruleId.slice(PLUGIN_PREFIX.length),
      line: message.line,
      column: message.column,
      message: message.message,
      suggestions: (message.suggestions ?? []).map(({ desc, fix }) => ({ desc, fix })),
    });
  }
  return findings;
}

/** `text` with one fix applied, as the editor should have it after the quick fix. */
export function applyFix(text: string, fix: Rule.Fix): string {
  return text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
}

export function ruleIds(): string[] {
  return Object.keys(plugin.rules).sort();
}
