import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import type { MessageId, Options } from '../../src/rules/no-blocking-in-async';
import rule from '../../src/rules/no-blocking-in-async';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';
import { SERVING } from './blockingCosts';

// A chat bot's listener runs once per message, interaction or update its users send, as many at
// once as they send: while one blocks, every other chat waits. As with a server framework, the
// listener is told by what the client is (built by the bot library), and it is concurrent context
// even when it is synchronous. The client's own events (login, diagnostics, errors) are not.
const blocking = (line: number, column: number, name: string, where: string) => ({
  messageId: 'blockingCall' as const, line, column, data: { cost: SERVING, name, where },
});

const valid: ValidTestCase<Options>[] = [
  // The login event runs once, when the client connects.
  { code: `import fs from 'node:fs';
import { Client } from 'discord.js';
const client = new Client({ intents: [] });
client.once('ready', () => { console.log(fs.readFileSync('banner.txt', 'utf8')); });` },
  // The client's own error and diagnostics events.
  { code: `import fs from 'node:fs';
import { Client } from 'discord.js';
const client = new Client({ intents: [] });
client.on('error', (e) => fs.appendFileSync('errors.log', String(e)));` },
  { code: `import fs from 'node:fs';
import TelegramBot from 'node-telegram-bot-api';
const bot = new TelegramBot('token', { polling: true });
bot.on('polling_error', (e) => fs.appendFileSync('errors.log', String(e)));` },
  // An object that only looks like a bot client.
  { code: `import fs from 'node:fs';
const client = { on(event: string, fn: (m: unknown) => void) { fn(event); } };
client.on('messageCreate', () => fs.readFileSync('x.json'));` },
  // A telegraf error handler runs when a listener failed, not per update.
  { code: `import fs from 'node:fs';
import { Telegraf } from 'telegraf';
const bot = new Telegraf('token');
bot.catch((err) => fs.appendFileSync('errors.log', String(err)));` },
  // A listener that only reads what was loaded once, at startup.
  { code: `import fs from 'node:fs';
import { Bot } from 'grammy';
const bot = new Bot('token');
const rules = fs.readFileSync('rules.txt', 'utf8');
bot.command('rules', (ctx) => ctx.reply(rules));` },
];

const invalid: InvalidTestCase<MessageId, Options>[] = [
  // A discord.js listener reading and writing a JSON store per message.
  {
    code: `import fs from 'node:fs';
import { Client } from 'discord.js';
const client = new Client({ intents: [] });
client.on('messageCreate', (message) => {
  const xp = JSON.parse(fs.readFileSync('xp.json', 'utf8'));
  xp[message.author.id] = (xp[message.author.id] ?? 0) + 1;
  fs.writeFileSync('xp.json', JSON.stringify(xp));
});`,
    errors: [
      blocking(5, 25, 'fs.readFileSync', 'a discord.js message listener (line 4)'),
      blocking(7, 3, 'fs.writeFileSync', 'a discord.js message listener (line 4)'),
    ],
  },
  // CommonJS, the client built through the namespace.
  {
    code: `const fs = require('fs');
const Discord = require('discord.js');
const client = new Discord.Client();
client.on('interactionCreate', (interaction) => interaction.reply(fs.readFileSync('help.md', 'utf8')));`,
    errors: [blocking(4, 67, 'fs.readFileSync', 'a discord.js message listener (line 4)')],
  },
  // telegraf: a command handler saving through a same-file helper.
  {
    code: `const fs = require('fs');
const { Telegraf } = require('telegraf');
const bot = new Telegraf(process.env.TOKEN);
const db = {};
function save() { fs.writeFileSync('db.json', JSON.stringify(db)); }
bot.command('join', (ctx) => { db[ctx.from.id] = true; save(); });`,
    errors: [blocking(5, 19, 'fs.writeFileSync', "`save` (line 5), which a telegraf message listener calls (line 6) while the process serves")],
  },
  // node-telegram-bot-api: `onText` and message events.
  {
    code: `import { execSync } from 'node:child_process';
import TelegramBot from 'node-telegram-bot-api';
const bot = new TelegramBot('token', { polling: true });
bot.onText(/\\/uptime/, (msg) => bot.sendMessage(msg.chat.id, execSync('uptime').toString()));`,
    errors: [blocking(4, 62, 'child_process.execSync', 'a node-telegram-bot-api message listener (line 4)')],
  },
  // grammY.
  {
    code: `import { gzipSync } from 'node:zlib';
import { Bot } from 'grammy';
const bot = new Bot('token');
bot.on('message:document', (ctx) => ctx.reply(gzipSync(Buffer.from(ctx.message.caption ?? '')).toString('base64')));`,
    errors: [blocking(4, 47, 'zlib.gzipSync', 'a grammy message listener (line 4)')],
  },
];

createRuleTester().run<MessageId, Options>('no-blocking-in-async (chat bot listeners)', rule as never, { valid, invalid });
createRecommendedRuleTester().run<MessageId, Options>('no-blocking-in-async (chat bot listeners, recommended)', rule as never, { valid, invalid });
