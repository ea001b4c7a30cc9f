import rule from '../../src/rules/no-sleep-holding-permit';
import { createRecommendedRuleTester } from '../ruleTester';

/** A browser page waiting out a fixed delay (`waitForTimeout(ms)`, puppeteer's `waitFor(ms)`) under a permit. */
const ruleTester = createRecommendedRuleTester();

ruleTester.run('no-sleep-holding-permit', rule, {
  valid: [
    // `waitFor` with a selector waits for the page, not for a timer.
    `
import genericPool from 'generic-pool';
import puppeteer from 'puppeteer';
const pool = genericPool.createPool({ create: () => puppeteer.launch(), destroy: (b) => b.close() }, { max: 2 });
export const shoot = (url) => pool.use(async (browser) => {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitFor('#chart');
  return page.screenshot();
});
`,
    // A selector handed in by the caller may be text: not a sleep.
    `
import genericPool from 'generic-pool';
import puppeteer from 'puppeteer';
const pool = genericPool.createPool({ create: () => puppeteer.launch(), destroy: (b) => b.close() }, { max: 2 });
async function render(browser, ready) {
  const page = await browser.newPage();
  await page.waitFor(ready);
  return page.screenshot();
}
export const shoot = (ready) => pool.use((browser) => render(browser, ready));
`,
    // The delay runs after the browser went back to the pool.
    `
import genericPool from 'generic-pool';
import puppeteer from 'puppeteer';
const pool = genericPool.createPool({ create: () => puppeteer.launch(), destroy: (b) => b.close() }, { max: 2 });
export async function shoot(url) {
  const shot = await pool.use(async (browser) => {
    const page = await browser.newPage();
    await page.goto(url);
    return page.screenshot();
  });
  const page = await (await puppeteer.launch()).newPage();
  await page.waitForTimeout(1000);
  return shot;
}
`,
  ],
  invalid: [
    // puppeteer's `waitFor(ms)` with a number the request sets, in a helper every pool callback calls.
    {
      code: `
import genericPool from 'generic-pool';
import puppeteer from 'puppeteer';
const pool = genericPool.createPool({ create: () => puppeteer.launch(), destroy: (b) => b.close() }, { max: 2 });
async function render(browser, task) {
  let page = null;
  try {
    page = await browser.newPage();
    await page.goto(task.url);
    await page.waitFor(task.delay);
    return await page.screenshot();
  } finally {
    if (page) await page.close();
  }
}
export function handler(req, res) {
  const delay = Number(req.query.delay) || 5 * 1000;
  const task = { url: req.query.url, delay };
  pool.use((browser) => render(browser, task)).then((image) => res.send(image));
}
`,
      errors: [{ messageId: 'helperSleepsHoldingPermit', line: 10, column: 11, data: {
        sleep: 'await page.waitFor(task.delay)', helper: 'render', noun: 'pooled resource', taker: 'pool.use(...)', line: '19',
        verb: 'sleeps', cost: '1 of 2 pooled resources does nothing for the whole delay',
      } }],
    },
    // `waitForTimeout(ms)` on a page of a browser held under a p-limit slot.
    {
      code: `
import pLimit from 'p-limit';
import { chromium } from 'playwright';
const limit = pLimit(3);
export const capture = (url) => limit(async () => {
  const browser = await chromium.launch();
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForTimeout(2000);
  return page.screenshot();
});
`,
      errors: [{ messageId: 'sleepHoldingPermit', line: 9, column: 9, data: {
        sleep: 'await page.waitForTimeout(2000)', noun: 'permit', taker: 'limit(...)', line: '5', cost: '1 of 3 slots does nothing for the whole delay',
      } }],
    },
  ],
});
