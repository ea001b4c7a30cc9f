// Drives a real VS Code (code-server) with the packaged extension installed, through the DOM.
// Run by test/e2e/run.sh:
//   node --import tsx test/e2e/driver.ts --url <code-server> --samples <copy of samples/> --bare <folder>
//     --extensions <code-server extensions dir> --out <dir>
// Prints `ok - …` / `not ok - …` per check and a final line `N passed, M failed`; exits 1 on failure.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Locator } from 'playwright-core';
import { applyFix, findingsIn, ruleIds, type Finding } from './expected';
import { TIMEOUT, Workbench } from './workbench';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    samples: { type: 'string' },
    bare: { type: 'string' },
    extensions: { type: 'string' },
    out: { type: 'string' },
  },
});
const url = required(args.url, '--url');
const samples = required(args.samples, '--samples');
const bare = required(args.bare, '--bare');
const out = required(args.out, '--out');
const extensions = required(args.extensions, '--extensions');

/** The sample files, one hazard each; the last one is never opened before the workspace scan. */
const SAMPLE_FILES = ['src/worker.ts', 'src/summarizer.ts', 'src/templates.ts', 'src/api.ts', 'src/batch.ts'];
const UNOPENED = 'src/batch.ts';
/** E2E_HOLD_WORKERS_MS=N keeps the page's web workers busy for N ms while a quick fix is clicked.
 * The fix's edit reaches the editor through a worker, so this gives on demand the order a loaded
 * machine gives now and then: the edit lands after the click returns (Workbench.save waits for it). */
const HOLD_WORKERS_MS = Number(process.env.E2E_HOLD_WORKERS_MS ?? 0);
/** The first lint in a folder includes starting the server and loading ESLint and TypeScript. */
const FIRST_LINT_TIMEOUT = 90_000;

/** The folder with no ESLint config, no tsconfig and no node_modules. */
const BARE_FILES: Record<string, string> = {
  'jobs.js': [
    "const fs = require('fs');",
    '',
    'async function renderReport(name) {',
    "  const template = fs.readFileSync(`./templates/${name}.html`, 'utf8');",
    '  return template.replace("{{name}}", name);',
    '}',
    '',
    'module.exports = { renderReport };',
    '',
  ].join('\n'),
  'notify.ts': [
    'export async function sendEmail(to: string): Promise<void> {',
    '  await fetch(`https://mail.example/send?to=${to}`);',
    '}',
    '',
    'export async function onSignup(email: string): Promise<void> {',
    '  sendEmail(email);',
    '}',
    '',
  ].join('\n'),
};

let passed = 0;
let failed = 0;
let shotNumber = 0;

async function check(name: string, body: () => Promise<void>): Promise<void> {
  const started = Date.now();
  const took = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  try {
    await body();
    passed++;
    console.log(`ok - ${name} (${took()})`);
  } catch (error) {
    failed++;
    console.log(`not ok - ${name} (${took()}): ${(error as Error).message.split('\n')[0]}`);
    await shot(`FAILED-${name}`).catch(() => undefined);
  }
}

let workbench: Workbench;

async function shot(name: string): Promise<void> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 70);
  await workbench.screenshot(path.join(out, `${String(++shotNumber).padStart(2, '0')}-${slug}.png`));
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new Error(`missing ${flag}`);
  return value;
}

/** "Disable <rule> for this line", with or without the plugin prefix on the rule. */
function disableTitle(rule: string): RegExp {
  return new RegExp(`Disable (async-hazards/)?${rule} for this line`);
}

function lines(findings: Finding[]): string {
  return findings.map((f) => f.line).join(', ');
}

/** Problems-panel rows that show `finding` (its rule and position). */
function rowsOf(rows: string[], finding: Finding): string[] {
  const position = `Ln ${finding.line}, Col ${finding.column}`;
  return rows.filter((row) => row.includes(finding.rule) && row.includes(position));
}

async function main(): Promise<void> {
  await fs.mkdir(out, { recursive: true });
  for (const [name, text] of Object.entries(BARE_FILES)) await fs.writeFile(path.join(bare, name), text);

  const expected = new Map<string, Finding[]>();
  for (const file of SAMPLE_FILES) expected.set(file, await findingsIn(samples, file));
  const all = [...expected.values()].flat();
  const opened = SAMPLE_FILES.filter((file) => file !== UNOPENED);
  /** One finding of each rule in a file opened before the scan. */
  const firstOf = new Map<string, Finding>();
  // Per rule, prefer a finding that has a suggestion, so the menu check can look for it.
  for (const finding of [...all.filter((f) => f.suggestions.length > 0), ...all]) {
    if (finding.file !== UNOPENED && !firstOf.has(finding.rule)) firstOf.set(finding.rule, finding);
  }

  for (const rule of ruleIds()) {
    await check(`samples/ has a finding of ${rule}`, async () => {
      assert(all.some((f) => f.rule === rule), `ESLint reports no ${rule} in ${SAMPLE_FILES.join(', ')}`);
    });
  }

  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'async-hazards-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    // Loopback only: the workbench's gallery queries and the like are aborted.
    await context.route((u) => !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(u.href), (route) => route.abort());
    const page = context.pages()[0] ?? (await context.newPage());
    workbench = new Workbench(page);
    await run(expected, opened, firstOf);
  } finally {
    await context.close();
    await fs.rm(profile, { recursive: true, force: true });
  }
}

async function run(expected: Map<string, Finding[]>, opened: string[], firstOf: Map<string, Finding>): Promise<void> {
  const wb = workbench;
  await check('workbench opens a copy of samples/', () => wb.open(url, samples));
  await shot('workbench');

  // 1. Squiggles, file by file, at the lines ESLint reports.
  for (const file of opened) {
    const findings = expected.get(file) ?? [];
    const rules = [...new Set(findings.map((f) => f.rule))].join(', ') || 'none';
    await check(`${file}: squiggles at lines ${lines(findings)} (${rules})`, async () => {
      await wb.openFile(file);
      // The first file of a folder waits for the server to start and load the folder.
      for (const finding of findings) await wb.waitForSquiggle(finding.line, file === opened[0] ? FIRST_LINT_TIMEOUT : undefined);
    });
    await shot(`squiggles ${file}`);
  }

  // 2–3. Hover and quick-fix menu for every rule with a finding in an opened file.
  for (const finding of firstOf.values()) await hoverAndMenu(finding);

  // 4. Apply a suggestion: the text changes as ESLint's fix says, and the squiggle goes away.
  const fixable = [...firstOf.values()].find((f) => f.suggestions.length > 0);
  await check(`applying ${fixable ? `"${fixable.suggestions[0]?.desc}" on ${fixable.rule}` : 'a suggestion'} changes the text and removes the squiggle`, async () => {
    assert(fixable !== undefined, 'no finding with a suggestion in the opened files');
    const suggestion = fixable.suggestions[0];
    assert(suggestion !== undefined, 'unreachable');
    const before = await fs.readFile(path.join(samples, fixable.file), 'utf8');
    await wb.openFile(fixable.file);
    const item = await wb.quickFixMenu(fixable.line, fixable.column, suggestion.desc);
    await applyAndSave(item, fixable.file);
    const after = await fs.readFile(path.join(samples, fixable.file), 'utf8');
    const wanted = applyFix(before, suggestion.fix);
    if (after !== wanted) {
      await fs.writeFile(path.join(out, 'fix-expected.txt'), wanted);
      await fs.writeFile(path.join(out, 'fix-actual.txt'), after);
      const line = after.split('\n').findIndex((text, index) => text !== wanted.split('\n')[index]) + 1;
      throw new Error(`file text after the fix differs from ESLint's suggestion output from line ${line} (fix-expected.txt, fix-actual.txt)`);
    }
    const remaining = await findingsIn(samples, fixable.file);
    if (!remaining.some((f) => f.line === fixable.line && f.rule === fixable.rule)) await wb.waitForNoSquiggle(fixable.line);
    await shot(`after fix ${fixable.rule}`);
  });

  // 5. "Disable … for this line" on a finding in another file.
  const candidates = opened.flatMap((file) => expected.get(file) ?? []);
  const disabled = candidates.find((f) => f.file !== fixable?.file);
  await check(`"Disable ${disabled?.rule ?? '…'} for this line" adds the comment and removes the squiggle`, async () => {
    assert(disabled !== undefined, 'no second file with a finding');
    await wb.openFile(disabled.file);
    const item = await wb.quickFixMenu(disabled.line, disabled.column, disableTitle(disabled.rule));
    await applyAndSave(item, disabled.file);
    const text = (await fs.readFile(path.join(samples, disabled.file), 'utf8')).split('\n');
    const comment = text[disabled.line - 1] ?? '';
    assert(comment.includes('eslint-disable-next-line') && comment.includes(disabled.rule),
      `line ${disabled.line} is not a disable comment: ${comment}`);
    await wb.waitForNoSquiggle(disabled.line + 1);
    await shot(`after disable ${disabled.rule}`);
  });

  // 6. Problems panel: every finding of the opened files, each once (texts re-read after the edits).
  for (const file of opened) {
    const findings = await findingsIn(samples, file);
    await check(`Problems panel lists the ${findings.length} finding(s) of ${file}, each once`, async () => {
      const rows = await wb.problems(`**/${file}`, findings.length);
      for (const finding of findings) {
        const count = rowsOf(rows, finding).length;
        assert(count === 1, `${finding.rule} at ${finding.line}:${finding.column} is listed ${count} times`);
      }
    });
  }
  await shot('problems opened files');

  // 7. Workspace scan: findings of a file that was never opened appear, each once.
  const unopened = await findingsIn(samples, UNOPENED);
  await check(`before the scan, Problems lists nothing for the never-opened ${UNOPENED}`, async () => {
    const rows = await wb.problems(`**/${UNOPENED}`, 0);
    assert(rows.length === 0, `already listed: ${rows.join(' | ')}`);
  });
  await check(`after "Async Hazards: Scan Workspace", Problems lists the ${unopened.length} finding(s) of ${UNOPENED}, each once`, async () => {
    await wb.runCommand('Async Hazards: Scan Workspace');
    const rows = await wb.problems(`**/${UNOPENED}`, unopened.length);
    for (const finding of unopened) {
      const count = rowsOf(rows, finding).length;
      assert(count === 1, `${finding.rule} at ${finding.line}:${finding.column} is listed ${count} times`);
    }
    await shot('problems after workspace scan');
  });
  await check(`${UNOPENED} once opened: squiggles at lines ${lines(unopened)}, still listed once in Problems`, async () => {
    await wb.openFile(UNOPENED);
    for (const finding of unopened) await wb.waitForSquiggle(finding.line);
    const rows = await wb.problems(`**/${UNOPENED}`, unopened.length);
    for (const finding of unopened) {
      const count = rowsOf(rows, finding).length;
      assert(count === 1, `${finding.rule} at ${finding.line}:${finding.column} is listed ${count} times`);
    }
    await shot(`squiggles ${UNOPENED}`);
  });
  // Rules whose only sample is the never-opened file get their hover and menu checks now.
  const onlyUnopened = new Map<string, Finding>();
  for (const finding of [...unopened.filter((f) => f.suggestions.length > 0), ...unopened]) {
    if (!firstOf.has(finding.rule) && !onlyUnopened.has(finding.rule)) onlyUnopened.set(finding.rule, finding);
  }
  for (const finding of onlyUnopened.values()) await hoverAndMenu(finding);

  // 8. A settings change turns a rule off: its squiggles go, without a reload; back on, they return.
  const target = candidates.find((f) => f.file !== fixable?.file && f.file !== disabled?.file);
  await check(`turning ${target?.rule ?? 'a rule'} off in .vscode/settings.json removes its squiggles without reload`, async () => {
    assert(target !== undefined, 'no finding to turn off');
    const current = (await findingsIn(samples, target.file)).filter((f) => f.rule === target.rule);
    assert(current.length > 0, `no ${target.rule} left in ${target.file}`);
    await wb.openFile(target.file);
    for (const finding of current) await wb.waitForSquiggle(finding.line);
    await writeWorkspaceSettings({ 'asyncHazards.rules': { [target.rule]: 'off' } });
    for (const finding of current) await wb.waitForNoSquiggle(finding.line);
    await shot(`rule off ${target.rule}`);
    await writeWorkspaceSettings({});
    for (const finding of current) await wb.waitForSquiggle(finding.line);
  });

  // 8b. A server crash is not swallowed: the user is told, and a new server takes over.
  await check('a killed server is reported to the user and a restarted server answers settings changes', async () => {
    assert(target !== undefined, 'no finding to check against');
    const [pid, ...more] = await poll('one running server process', async () => {
      const pids = await serverPids();
      return pids.length > 0 && pids;
    });
    assert(more.length === 0, `several server processes: ${[pid, ...more].join(', ')}`);
    process.kill(pid as number, 'SIGKILL');
    await wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Async Hazards server crashed' })
      .first().waitFor({ timeout: 30_000 });
    await shot('server crash reported');
    await poll('a new server process', async () => {
      const pids = await serverPids();
      return pids.length === 1 && !pids.includes(pid as number);
    }, 60_000);
    const current = (await findingsIn(samples, target.file)).filter((f) => f.rule === target.rule);
    await writeWorkspaceSettings({ 'asyncHazards.rules': { [target.rule]: 'off' } });
    for (const finding of current) await wb.waitForNoSquiggle(finding.line, 60_000);
    await writeWorkspaceSettings({});
    for (const finding of current) await wb.waitForSquiggle(finding.line);
  });

  // 8c. The client's docs command opens the page bundled in the extension (the browser is offline).
  await check('"Async Hazards: Open Rule Documentation" opens the bundled page of the chosen rule in the preview', async () => {
    const rule = target?.rule ?? 'no-orphaned-promise';
    await wb.runCommand('Async Hazards: Open Rule Documentation');
    await wb.pick('documentation of an Async Hazards rule', rule);
    await wb.page.locator('.tab.active', { hasText: `Preview ${rule}.md` }).waitFor({ timeout: TIMEOUT });
    // The preview is a webview: its page sits two frames down.
    await wb.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame')
      .locator('h1', { hasText: rule }).first().waitFor({ timeout: TIMEOUT });
    await shot(`rule docs ${rule}`);
  });

  // 9. A folder with nothing in it but code: no config, no tsconfig, no node_modules.
  await check('workbench opens a folder with no config, tsconfig or node_modules', () => wb.open(url, bare));
  for (const file of Object.keys(BARE_FILES)) {
    const findings = await findingsIn(bare, file);
    await check(`bare folder ${file}: squiggles at lines ${lines(findings)} with the hover message`, async () => {
      assert(findings.length > 0, `ESLint reports nothing in ${file}`);
      await wb.openFile(file);
      for (const finding of findings) await wb.waitForSquiggle(finding.line, FIRST_LINT_TIMEOUT);
      const first = findings[0];
      assert(first !== undefined, 'unreachable');
      await wb.hoverSquiggle(first.line, first.rule);
      await shot(`bare ${file}`);
      await wb.page.keyboard.press('Escape');
    });
  }
}

/** The hover shows the message, the rule code and its docs link; the quick-fix menu offers the
 * rule's first suggestion and "Disable <rule> for this line". */
async function hoverAndMenu(finding: Finding): Promise<void> {
  const wb = workbench;
  const { rule } = finding;
  await check(`hover on ${rule} (${finding.file}:${finding.line}) shows message, code and docs link`, async () => {
    await wb.openFile(finding.file);
    const hover = await wb.hoverSquiggle(finding.line, rule);
    const text = await hover.innerText();
    const words = finding.message.replace(/`/g, '').split(/\s+/).slice(0, 6).join(' ');
    const flat = text.replace(/`/g, '').replace(/\s+/g, ' ');
    assert(flat.includes(words), `hover text lacks "${words}": ${text}`);
    assert(flat.indexOf(words) === flat.lastIndexOf(words), `hover says the message twice: ${text}`);
    const link = hover.locator(`a[href*="${rule}"], a[data-href*="${rule}"]`).first();
    assert((await link.count()) > 0, `hover has no link to the ${rule} docs`);
    await shot(`hover ${rule}`);
    await wb.page.keyboard.press('Escape');
  });
  const suggestion = finding.suggestions[0]?.desc;
  await check(`quick-fix menu on ${rule} offers ${suggestion ? `"${suggestion}" and ` : ''}"Disable ${rule} for this line"`, async () => {
    await wb.openFile(finding.file);
    await wb.quickFixMenu(finding.line, finding.column, disableTitle(rule));
    const titles = await wb.menuTitles();
    if (suggestion !== undefined) assert(titles.some((t) => t.includes(suggestion)), `menu lacks "${suggestion}": ${titles.join(' | ')}`);
    await shot(`quick fix menu ${rule}`);
    await wb.page.keyboard.press('Escape');
  });
}

/** Applies the quick-fix menu item and saves `file` (of samples/), which it changes. */
async function applyAndSave(item: Locator, file: string): Promise<void> {
  // Otherwise the dirty mark save() waits for could predate the fix.
  assert(!(await workbench.isDirty()), `${file} had unsaved changes before the fix`);
  if (HOLD_WORKERS_MS > 0) workbench.holdWorkers(HOLD_WORKERS_MS);
  await item.click();
  await workbench.save(path.join(samples, file));
}

/** Processes running the installed extension's server bundle (found by their command line). */
async function serverPids(): Promise<number[]> {
  const bundle = `${path.resolve(extensions)}/`;
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(bundle) && commandLine.includes('/dist/server.js')) pids.push(Number(entry));
  }
  return pids;
}

/** Re-runs `probe` every 200 ms until it returns something truthy, for at most `timeout` ms. */
async function poll<T>(what: string, probe: () => Promise<T | false>, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function writeWorkspaceSettings(settings: Record<string, unknown>): Promise<void> {
  await fs.mkdir(path.join(samples, '.vscode'), { recursive: true });
  await fs.writeFile(path.join(samples, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

main()
  .catch((error: unknown) => {
    failed++;
    console.log(`not ok - driver: ${(error as Error).stack ?? String(error)}`);
  })
  .finally(() => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  });
