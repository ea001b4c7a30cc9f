import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { isTimedPageWait } from '../../src/analysis';
import { parse } from './parse';

/** Whether the call whose text is `text` waits out a timer on a browser page. */
function timed(code: string, text: string): boolean {
  const parsed = parse(code);
  return isTimedPageWait(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text));
}

const opened = `import puppeteer from 'puppeteer';
const browser = await puppeteer.launch();
const page = await browser.newPage();
`;

describe('isTimedPageWait', () => {
  it('waitForTimeout on a page the file opened', () => {
    assert.equal(timed(`${opened}await page.waitForTimeout(500);`, 'page.waitForTimeout(500)'), true);
    assert.equal(timed(`import { chromium } from 'playwright';\nconst ctx = await (await chromium.launch()).newContext();\nconst page = await ctx.newPage();\nawait page.waitForTimeout(ms);`, 'page.waitForTimeout(ms)'), true);
  });

  it('waitFor with a number, however the number is written', () => {
    assert.equal(timed(`${opened}await page.waitFor(2 * 1000);`, 'page.waitFor(2 * 1000)'), true);
    assert.equal(timed(`${opened}const delay = Number(process.env.DELAY) || 5000;\nawait page.waitFor(delay);`, 'page.waitFor(delay)'), true);
    assert.equal(timed(`${opened}async function shoot(task) { await page.waitFor(task.wait); }\nconst wait = Math.min(a, 9000);\nshoot({ wait });`, 'page.waitFor(task.wait)'), true);
    assert.equal(timed(`import _ from 'lodash';\n${opened}const wait = _.toInteger(q.wait) || 1000;\nawait page.waitFor(wait);`, 'page.waitFor(wait)'), true);
  });

  it('a page declared with the Page type of puppeteer or playwright', () => {
    assert.equal(timed(`import type { Page } from 'puppeteer';\nexport async function settle(page: Page) { await page.waitForTimeout(500); }`, 'page.waitForTimeout(500)'), true);
    assert.equal(timed(`import type * as pw from 'playwright';\nexport async function settle(page: pw.Page) { await page.waitFor(500); }`, 'page.waitFor(500)'), true);
    assert.equal(timed(`import type { Page } from './page';\nexport async function settle(page: Page) { await page.waitForTimeout(500); }`, 'page.waitForTimeout(500)'), false);
  });

  it('a page declared empty and opened later', () => {
    assert.equal(timed(`import puppeteer from 'puppeteer';\nlet page = null;\nexport async function go(browser) { page = await browser.newPage(); await page.waitFor(300); }`, 'page.waitFor(300)'), true);
  });

  it('waitFor a selector, a function, or a value that may be either, is a wait for the page', () => {
    assert.equal(timed(`${opened}await page.waitFor('#done');`, "page.waitFor('#done')"), false);
    assert.equal(timed(`${opened}await page.waitFor(() => document.ready);`, 'page.waitFor(() => document.ready)'), false);
    assert.equal(timed(`${opened}const sel = q.sel || '#done';\nawait page.waitFor(sel);`, 'page.waitFor(sel)'), false);
    assert.equal(timed(`${opened}export async function go(what) { await page.waitFor(what); }`, 'page.waitFor(what)'), false);
    assert.equal(timed(`${opened}await page.waitFor(500, { polling: 10 });`, 'page.waitFor(500, { polling: 10 })'), false);
  });

  it('not a page: no newPage, or no browser package in reach', () => {
    assert.equal(timed(`import puppeteer from 'puppeteer';\nexport async function go(page) { await page.waitForTimeout(500); }`, 'page.waitForTimeout(500)'), false);
    assert.equal(timed(`const page = await browser.newPage();\nawait page.waitForTimeout(500);`, 'page.waitForTimeout(500)'), false);
    assert.equal(timed(`import { waitFor } from '@testing-library/react';\nawait waitFor(500);`, 'waitFor(500)'), false);
  });
});
