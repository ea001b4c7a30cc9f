// Playwright helpers over the VS Code workbench DOM (code-server 4.139 / VS Code 1.139).
// Every wait has a timeout; nothing sleeps. Where the workbench needs time (code actions wait for
// every provider), an action is retried with a bounded wait per try.
import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

export const TIMEOUT = 30_000;

type Box = { x: number; y: number; width: number; height: number };

/** In the page: the squiggles drawn on a visible line of the active editor (any severity), or
 * `null` when the line is not rendered. Self-contained: Playwright serialises it into the page. */
const squigglesOnLineInPage = (line: number): Box[] | null => {
  const editor = document.querySelector('.part.editor .editor-group-container.active .editor-instance .monaco-editor');
  if (editor === null) return null;
  let lineRect: DOMRect | undefined;
  for (const element of editor.querySelectorAll('.margin-view-overlays .line-numbers')) {
    if (element.textContent?.trim() === String(line)) lineRect = element.getBoundingClientRect();
  }
  if (lineRect === undefined) return null;
  const middle = (lineRect.top + lineRect.bottom) / 2;
  const boxes: Box[] = [];
  for (const squiggle of editor.querySelectorAll('.view-overlays [class*="squiggly-"]')) {
    const rect = squiggle.getBoundingClientRect();
    if (rect.width > 0 && rect.top <= middle && rect.bottom >= middle) {
      boxes.push({ x: rect.x, y: rect.y, width: rect.width, height: rect.height });
    }
  }
  return boxes;
};

/** E2E_TRACE=1 prints each workbench step with the time since the driver started. */
const TRACE = process.env.E2E_TRACE === '1';
const STARTED = Date.now();
function trace(step: string): void {
  if (TRACE) console.log(`  # ${((Date.now() - STARTED) / 1000).toFixed(1)} s ${step}`);
}

export class Workbench {
  constructor(readonly page: Page) {}

  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  private quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Opens a file through Quick Open (Ctrl+P) by its path relative to the folder. */
  async openFile(relativePath: string): Promise<void> {
    const name = relativePath.split('/').pop() ?? relativePath;
    trace(`open ${relativePath}`);
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    const input = this.quickInput().locator('input');
    await input.waitFor({ timeout: TIMEOUT });
    await input.fill(relativePath);
    // The focused row is what Enter opens: wait until filtering has put the file there.
    await this.quickInput().locator('.monaco-list-row.focused', { hasText: name }).waitFor({ timeout: TIMEOUT });
    trace('  quick open lists it');
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tab.active', { hasText: name }).waitFor({ timeout: TIMEOUT });
    trace('  tab active');
    await this.activeEditor().locator('.view-lines').waitFor({ timeout: TIMEOUT });
  }

  /** Moves the cursor to a 1-based line and column and reveals it (Quick Open `:line:column`). */
  async goTo(line: number, column = 1): Promise<void> {
    trace(`go to ${line}:${column}`);
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    const input = this.quickInput().locator('input');
    await input.waitFor({ timeout: TIMEOUT });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput().waitFor({ state: 'hidden', timeout: TIMEOUT });
  }

  /** Runs a command from the command palette by its title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('F1');
    const input = this.quickInput().locator('input');
    await input.waitFor({ timeout: TIMEOUT });
    await input.fill(`>${title}`);
    await this.quickInput().locator('.monaco-list-row.focused', { hasText: title }).waitFor({ timeout: TIMEOUT });
    await this.page.keyboard.press('Enter');
  }

  /** Chooses `item` in the quick pick a command opened (`placeholder` identifies that pick). */
  async pick(placeholder: string, item: string): Promise<void> {
    const input = this.page.locator(`.quick-input-widget input[placeholder*="${placeholder}"]`);
    await input.waitFor({ timeout: TIMEOUT });
    await input.fill(item);
    await this.quickInput().locator('.monaco-list-row.focused', { hasText: item }).waitFor({ timeout: TIMEOUT });
    await this.page.keyboard.press('Enter');
  }

  activeEditor(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .editor-instance .monaco-editor').first();
  }

  /** The squiggles on a visible line of the active editor; `null` when the line is not rendered. */
  async squigglesOnLine(line: number): Promise<Box[] | null> {
    return this.page.evaluate(squigglesOnLineInPage, line);
  }

  /** Waits (on animation frames, in the page) until `line` is rendered with or without a squiggle. */
  private async waitForLine(line: number, squiggle: boolean, timeout: number): Promise<Box[]> {
    trace(`wait for ${squiggle ? 'a' : 'no'} squiggle on ${line}`);
    try {
      // A string expression: evaluated through the DevTools protocol, so the page's CSP does not apply.
      const predicate = `(() => {
        const boxes = (${squigglesOnLineInPage.toString()})(${JSON.stringify(line)});
        if (boxes === null) return false;
        return ${JSON.stringify(squiggle)} ? (boxes.length > 0 ? boxes : false) : (boxes.length === 0 ? boxes : false);
      })()`;
      const handle = await this.page.waitForFunction(predicate, undefined, { timeout, polling: 'raf' });
      return (await handle.jsonValue()) as Box[];
    } catch (error) {
      const seen = await this.squigglesOnLine(line).catch(() => null);
      throw new Error(`${squiggle ? 'no squiggle appeared' : 'the squiggle stayed'} on line ${line} ` +
        `(line ${seen === null ? 'not rendered' : `has ${seen.length} squiggle(s)`}): ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /** Reveals `line` and waits for a squiggle on it; returns the first squiggle's box. */
  async waitForSquiggle(line: number, timeout = TIMEOUT): Promise<Box> {
    await this.goTo(line);
    const boxes = await this.waitForLine(line, true, timeout);
    return boxes[0] as Box;
  }

  async waitForNoSquiggle(line: number, timeout = TIMEOUT): Promise<void> {
    await this.goTo(line);
    await this.waitForLine(line, false, timeout);
  }

  /** Hovers the squiggle on `line` and returns the hover once it contains `text`. */
  async hoverSquiggle(line: number, text: string): Promise<Locator> {
    const box = await this.waitForSquiggle(line);
    const hover = this.page.locator('.monaco-hover', { hasText: text }).first();
    for (let attempt = 0; ; attempt++) {
      // Moving away first makes the editor treat the next move as a fresh hover.
      await this.page.mouse.move(box.x + Math.min(12, box.width / 2), box.y - 200);
      await this.page.mouse.move(box.x + Math.min(12, box.width / 2), box.y + box.height / 2 - 3);
      try {
        await hover.waitFor({ timeout: 5_000 });
        return hover;
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  }

  /** Opens the quick-fix menu at line:column and waits until it lists `title`. */
  async quickFixMenu(line: number, column: number, title: string | RegExp): Promise<Locator> {
    const item = this.page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
    // Ctrl+. waits for every code-action provider (the built-in TypeScript server may still be
    // starting), so the menu is retried with a bounded wait per try.
    for (let attempt = 0; ; attempt++) {
      await this.goTo(line, column);
      trace('  Ctrl+.');
      await this.page.keyboard.press('Control+.');
      try {
        await item.waitFor({ timeout: 15_000 });
        return item;
      } catch (error) {
        const titles = await this.menuTitles();
        await this.page.keyboard.press('Escape');
        if (attempt >= 3) {
          throw new Error(`the quick-fix menu did not offer "${title}" (menu: ${titles.join(' | ') || 'not shown'}): ${(error as Error).message.split('\n')[0]}`);
        }
      }
    }
  }

  async menuTitles(): Promise<string[]> {
    return this.page.locator('.action-widget .monaco-list-row').allInnerTexts();
  }

  /** Does the active editor have unsaved changes (the tab's dirty mark)? */
  async isDirty(): Promise<boolean> {
    return (await this.page.locator('.tab.active.dirty').count()) > 0;
  }

  /** Saves the active editor, whose file is `filePath`, once it has an unsaved change, and waits
   * until the file is written. A quick fix's edit reaches the editor after the click has returned
   * (it waits on a web worker): a Ctrl+S pressed before that writes nothing, so this first waits
   * for the dirty mark. VS Code removes the mark when the write has returned. */
  async save(filePath: string): Promise<void> {
    const dirty = this.page.locator('.tab.active.dirty');
    try {
      await dirty.waitFor({ state: 'attached', timeout: TIMEOUT });
    } catch (error) {
      throw new Error(`nothing to save: the active editor got no unsaved change (${(error as Error).message.split('\n')[0]})`);
    }
    const before = await fs.stat(filePath);
    await this.page.keyboard.press('Control+S');
    await dirty.waitFor({ state: 'detached', timeout: TIMEOUT });
    const after = await fs.stat(filePath);
    if (after.mtimeMs === before.mtimeMs && after.size === before.size) {
      throw new Error(`the dirty mark went, but ${filePath} was not written`);
    }
  }

  /** Shows the Problems panel filtered to one file (a glob) and returns its marker rows' texts,
   * once the filter has applied and at least `atLeast` Async Hazards rows are listed. */
  async problems(fileGlob: string, atLeast: number): Promise<string[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('Control+Shift+M');
      await panel.waitFor({ timeout: TIMEOUT });
    }
    const name = fileGlob.split('/').pop() ?? fileGlob;
    const predicate = `(() => {
      const rows = [...document.querySelectorAll('.markers-panel .monaco-list-row')];
      const files = rows.filter((row) => row.getAttribute('aria-level') === '1');
      if (!files.every((row) => row.textContent.includes(${JSON.stringify(name)}))) return false;
      const markers = rows.filter((row) => row.getAttribute('aria-level') === '2' && row.textContent.includes('async-hazards'));
      return markers.length >= ${atLeast};
    })()`;
    // The filter box can miss a fill made while the panel is still laying out: refill per try.
    const input = this.page.locator('.part.panel .viewpane-filter input').first();
    for (let attempt = 0; ; attempt++) {
      await input.fill('');
      await input.fill(fileGlob);
      try {
        await this.page.waitForFunction(predicate, undefined, { timeout: 10_000, polling: 'raf' });
        break;
      } catch (error) {
        if (attempt < 2) continue;
        const rows = await this.page.locator('.markers-panel .monaco-list-row').allInnerTexts();
        throw new Error(`Problems filtered to ${fileGlob} did not list ${atLeast} finding(s); rows: ` +
          `${rows.map((row) => row.replace(/\s+/g, ' ')).join(' | ') || 'none'} (${(error as Error).message.split('\n')[0]})`);
      }
    }
    return (await this.page.locator('.markers-panel .monaco-list-row[aria-level="2"]').allInnerTexts())
      .map((row) => row.replace(/\s+/g, ' '));
  }

  /** Keeps every web worker of the page busy for `ms` (without waiting for it): work the
   * workbench hands to a worker is delayed, as on a loaded machine. Fault injection, not a wait. */
  holdWorkers(ms: number): void {
    for (const worker of this.page.workers()) {
      void worker.evaluate(`(() => { const end = Date.now() + ${ms}; while (Date.now() < end); })()`).catch(() => undefined);
    }
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path });
  }
}
