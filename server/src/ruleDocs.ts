import * as fs from 'node:fs';
import * as path from 'node:path';
import plugin from 'eslint-plugin-async-hazards';

interface RuleMetaLike {
  meta?: { docs?: { url?: string; description?: string } };
}

/** `async-hazards/<name>` or `<name>` → `<name>`. */
export function ruleName(ruleId: string): string {
  return ruleId.slice(ruleId.lastIndexOf('/') + 1);
}

/** The rule's docs URL, from the rule's own `meta.docs.url`. */
export function ruleDocsUrl(ruleId: string): string | undefined {
  const rule = (plugin.rules as Record<string, RuleMetaLike>)[ruleName(ruleId)];
  return rule?.meta?.docs?.url;
}

/**
 * Local docs page of a rule: next to the bundle (`dist/docs/<name>.md`, copied by esbuild.mjs) or,
 * when running from source, in the plugin's `docs/rules/`.
 */
export function ruleDocsPath(ruleId: string): string | undefined {
  const name = ruleName(ruleId);
  if (!/^[a-z-]+$/.test(name)) return undefined;
  const candidates = [path.join(__dirname, 'docs', `${name}.md`), path.join(__dirname, '..', '..', 'eslint-plugin', 'docs', 'rules', `${name}.md`)];
  return candidates.find((file) => fs.existsSync(file));
}

export interface RuleDocSummary {
  /** The page's opening paragraph: the pattern and what it costs at run time. */
  intro: string | undefined;
  /** The first paragraph of "Fixes and suggestions". */
  fixes: string | undefined;
}

const summaries = new Map<string, RuleDocSummary>();

export function ruleDocSummary(ruleId: string): RuleDocSummary {
  const name = ruleName(ruleId);
  const cached = summaries.get(name);
  if (cached) return cached;
  let summary: RuleDocSummary = { intro: undefined, fixes: undefined };
  const file = ruleDocsPath(name);
  if (file) {
    try {
      summary = summarize(fs.readFileSync(file, 'utf8'));
    } catch {
      // Unreadable docs only cost the hover its explanation.
    }
  }
  summaries.set(name, summary);
  return summary;
}

function summarize(markdown: string): RuleDocSummary {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  const sections = body.split(/^## /m);
  return { intro: firstParagraph(sections[0] ?? ''), fixes: firstParagraph(sections.find((s) => /^Fixes and suggestions/.test(s))?.replace(/^.*\n/, '') ?? '') };
}

function firstParagraph(text: string): string | undefined {
  for (const block of text.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (trimmed && !trimmed.startsWith('#') && !trimmed.startsWith('```') && !trimmed.startsWith('<') && !trimmed.startsWith('|')) {
      return trimmed.replace(/\s*\n\s*/g, ' ');
    }
  }
  return undefined;
}
