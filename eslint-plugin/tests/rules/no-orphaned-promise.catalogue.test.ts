import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { dropped } from './orphanedCases';

// Request methods of job-queue, temp-file and Telegram bot packages, known by where the object
// comes from (a construction, a declared type, an awaited factory, a handler the bot registers),
// never by the method's name alone.

const BULL = `const Queue = require('bull');
const mail = new Queue('mail', process.env.REDIS_URL);
exports.signup = (user) => {
  mail.add({ to: user.email });
};`;
const BULLMQ = `import { Queue } from 'bullmq';
const visits = new Queue('visits');
export function track(id) {
  visits.add('visit', { id });
}`;
// A Nest-style service: the queue is a parameter property declared with bull's type.
const INJECTED = `import type { Queue } from 'bull';
export class Mailer {
  constructor(private readonly queue: Queue) {}
  welcome(to: string) {
    this.queue.add({ to });
  }
}`;
const TMP = `const fs = require('fs/promises');
const { file } = require('tmp-promise');
exports.render = async (data) => {
  const { path, cleanup } = await file();
  await fs.writeFile(path, data);
  cleanup();
};`;
const TMP_OBJECT = `import { dir } from 'tmp-promise';
export async function build(run) {
  const tmp = await dir({ unsafeCleanup: true });
  await run(tmp.path);
  tmp.cleanup();
}`;
const TELEGRAM = `const TelegramBot = require('node-telegram-bot-api');
const bot = new TelegramBot(process.env.TOKEN, { polling: true });
bot.on('message', (msg) => {
  bot.sendMessage(msg.chat.id, 'hi');
});`;
const TELEGRAF = `const { Telegraf } = require('telegraf');
const bot = new Telegraf(process.env.TOKEN);
bot.command('start', async (ctx) => {
  ctx.reply('welcome');
});`;
const TELEGRAF_API = `import { Telegraf } from 'telegraf';
const bot = new Telegraf(process.env.TOKEN);
export function announce(chat, text) {
  bot.telegram.sendMessage(chat, text);
}`;
// fs.rm is missing on old Node versions: either way the call is a promise of fs/promises.
const FALLBACK = `const fs = require('fs').promises;
exports.withTempDir = async (fn) => {
  const dir = await fs.mkdtemp('/tmp/x-');
  try {
    return await fn(dir);
  } finally {
    (fs.rm || fs.rmdir)(dir, { recursive: true });
  }
};`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (package catalogue)', rule as never, {
  valid: [
    // Awaited, returned, handled, voided.
    BULL.replace('exports.signup = (user) => {\n  mail.add(', 'exports.signup = async (user) => {\n  await mail.add('),
    BULL.replace('  mail.add({ to: user.email });', '  return mail.add({ to: user.email });'),
    BULL.replace('mail.add({ to: user.email });', 'mail.add({ to: user.email }).catch(console.error);'),
    BULL.replace('mail.add({', 'void mail.add({'),
    TMP.replace('  cleanup();', '  await cleanup();'),
    TMP_OBJECT.replace('tmp.cleanup();', 'await tmp.cleanup();'),
    TELEGRAM.replace("bot.sendMessage(msg.chat.id, 'hi');", "bot.sendMessage(msg.chat.id, 'hi').catch(console.error);"),
    TELEGRAF.replace("ctx.reply('welcome');", "await ctx.reply('welcome');"),
    TELEGRAF_API.replace('bot.telegram.sendMessage', 'return bot.telegram.sendMessage'),
    FALLBACK.replace('(fs.rm || fs.rmdir)(dir', 'await (fs.rm || fs.rmdir)(dir'),
    // The same names on objects nothing ties to those packages.
    BULL.replace("require('bull')", "require('./queue')"),
    BULLMQ.replace("from 'bullmq'", "from './queue'"),
    // bull's `process` registers the worker; its promise settles only when the queue closes.
    BULL.replace('mail.add({ to: user.email });', 'mail.process(async (job) => send(job.data));'),
    INJECTED.replace("from 'bull'", "from './queue'"),
    "const seen = new Set();\nexport function mark(url) { seen.add(url); }",
    TMP.replace("require('tmp-promise')", "require('./tmp')"),
    // A `cleanup` that is not the temp file's, or a field other than `cleanup`.
    TMP.replace('const { path, cleanup } = await file();', 'const { path, cleanup } = await open();'),
    TMP.replace('const { path, cleanup } = await file();\n', "const { path } = await file();\n  const { cleanup } = { cleanup() {} };\n"),
    TELEGRAM.replace("require('node-telegram-bot-api')", "require('./bot')"),
    "exports.notify = (bot, id) => {\n  bot.sendMessage(id, 'hi');\n};",
    // A handler of another framework with a `ctx` parameter; a non-registering method of the bot.
    "const Koa = require('koa');\nconst app = new Koa();\napp.use((ctx) => {\n  ctx.reply('x');\n});",
    TELEGRAF.replace("bot.command('start', async (ctx) => {", "bot.catch(async (ctx) => {"),
    // A fallback to something that is not a promise API.
    FALLBACK.replace('(fs.rm || fs.rmdir)', '(fs.rm || removeSync)'),
  ],
  invalid: [
    dropped(BULL, 4, 3, 'mail.add('),
    dropped(BULLMQ, 4, 3, 'visits.add('),
    { ...dropped(INJECTED, 5, 5, 'this.queue.add('), filename: 'file.ts' },
    dropped(TMP, 6, 3, 'cleanup();', true),
    dropped(TMP_OBJECT, 5, 3, 'tmp.cleanup();', true),
    dropped(TELEGRAM, 4, 3, 'bot.sendMessage('),
    dropped(TELEGRAF, 4, 3, "ctx.reply('welcome')", true),
    dropped(TELEGRAF.replace("bot.command('start', async (ctx)", "bot.on('text', (ctx)"), 4, 3, "ctx.reply('welcome')"),
    dropped(TELEGRAF_API, 4, 3, 'bot.telegram.sendMessage('),
    dropped(FALLBACK, 7, 5, '(fs.rm || fs.rmdir)(dir', true),
  ],
});

// An Express 4 async handler rejects on client input alone when it reads into a body or query
// field the client may leave out, before any check and outside any `try`.
const express4 = fixture('frameworks/express4/src/app.js');
const express5 = fixture('frameworks/express5/src/app.js');
const SPLIT = `const express = require('express');
const app = express();
app.get('/hotels', async (req, res) => {
  const cities = req.query.cities.split(',');
  res.json(cities);
});`;
const DESTRUCTURED = `const express = require('express');
const router = express.Router();
router.post('/products', async (req, res) => {
  const { products } = req.body;
  res.json({ count: products.length });
});
module.exports = router;`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (Express request reads)', rule as never, {
  valid: [
    { code: SPLIT, filename: express5 },
    // Optional chaining, a default, a check first, a `try` around it.
    { code: SPLIT.replace('req.query.cities.split', 'req.query.cities?.split'), filename: express4 },
    { code: DESTRUCTURED.replace('const { products } = req.body;', "const { products = [] } = req.body;"), filename: express4 },
    { code: DESTRUCTURED.replace('  res.json({ count: products.length });', "  if (!products) return res.sendStatus(400);\n  res.json({ count: products.length });"), filename: express4 },
    { code: SPLIT.replace("  const cities = req.query.cities.split(',');\n  res.json(cities);", "  if (!req.query.cities) return res.sendStatus(400);\n  res.json(req.query.cities.split(','));"), filename: express4 },
    { code: SPLIT.replace("  const cities = req.query.cities.split(',');\n  res.json(cities);", "  try {\n    res.json(req.query.cities.split(','));\n  } catch (error) {\n    res.sendStatus(400);\n  }"), filename: express4 },
    // Only in a branch, or read without reading into it; route parameters are always set.
    { code: SPLIT.replace("  const cities = req.query.cities.split(',');", "  const cities = req.query.all ? [] : req.query.cities.split(',');"), filename: express4 },
    { code: SPLIT.replace('req.query.cities.split(\',\')', 'String(req.query.cities)'), filename: express4 },
    { code: SPLIT.replace('req.query.cities.split', 'req.params.cities.split'), filename: express4 },
    // Not async: the throw goes to Express's error handling.
    { code: SPLIT.replace('async (req, res)', '(req, res)'), filename: express4 },
    // Middleware registered beside the handler may validate the request first.
    { code: SPLIT.replace("app.get('/hotels', async", "app.get('/hotels', validate, async"), filename: express4 },
    { code: DESTRUCTURED.replace("router.post('/products', async", "router.post('/products', [auth, validate], async"), filename: express4 },
  ],
  invalid: [
    { code: SPLIT, filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 20 }] },
    // A list of paths is not middleware.
    { code: SPLIT.replace("app.get('/hotels', async", "app.get(['/hotels', '/stays'], async"), filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 32 }] },
    // Beside middleware, an `await` outside any `try` still rejects.
    {
      code: SPLIT.replace("app.get('/hotels', async", "app.get('/hotels', validate, async").replace("  res.json(cities);", "  res.json(await lookup(cities));"),
      filename: express4,
      errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 30 }],
    },
    { code: DESTRUCTURED, filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 26 }] },
    { code: SPLIT.replace("req.query.cities.split(',')", 'req.body.user.name'), filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 20 }] },
  ],
});

// `strict` counts every async Express 4 handler that is not guarded, reads or not.
createRuleTester().run<MessageId, Options>('no-orphaned-promise (Express request reads, strict)', rule as never, {
  valid: [],
  invalid: [
    { code: SPLIT.replace('req.query.cities.split', 'req.query.cities?.split'), filename: express4, errors: [{ messageId: 'frameworkIgnoresPromise', line: 3, column: 20 }] },
  ],
});
