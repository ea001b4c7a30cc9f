import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// telegraf and grammY run handlers as middleware: the bot awaits each handler's promise and hands
// a rejection to `bot.catch`. So do the composers their methods hand back (`bot.chatType(…)`,
// a scene's `wait(…)`) and the scenes built on them. discord.js listeners are plain event
// listeners: their promises go nowhere. The package in fixtures/frameworks/bots declares all four.
const filename = fixture('frameworks/bots/src/bot.ts');

const ignored = (line: number, column: number, name: string) => ({ messageId: 'asyncCallbackIgnored' as const, line, column, data: { name } });

const cases = {
  valid: [
    "import { Bot } from 'grammy';\nconst bot = new Bot('token');\nbot.chatType('private').on('message:text', async (ctx) => { await ctx.reply(ctx.message.text); });",
    "import { Scene } from 'grammy-scenes';\nconst scene = new Scene('announce');\nscene.wait('text').on('message:text', async (ctx) => { await ctx.reply('ok'); });",
    "import { Composer } from 'grammy';\nconst admin = new Composer();\nadmin.filter((ctx) => ctx.from?.id === 1).command('ban', async (ctx) => { await ctx.reply('banned'); });",
    "import { Telegraf, Scenes } from 'telegraf';\nconst bot = new Telegraf('token');\nconst scene = new Scenes.BaseScene('ask');\nscene.on('text', async (ctx) => { await ctx.reply('thanks'); });\nbot.on('message', async (ctx) => { await ctx.reply('hi'); });",
  ],
  invalid: [
    // The look-alike near miss: a discord.js client's listener, whose promise the emitter drops.
    {
      code: "import { Client } from 'discord.js';\nconst client = new Client({ intents: [] });\nclient.on('messageCreate', async (message) => { await message.reply('hi'); });",
      errors: [ignored(3, 28, 'client.on')],
    },
    // An `on` whose receiver is not a bot's composer is an event listener as before.
    {
      code: "import { EventEmitter } from 'node:events';\nimport { Bot } from 'grammy';\nconst bot = new Bot('token');\nconst events = new EventEmitter();\nevents.on('update', async () => { await bot.api.sendMessage(1, 'x'); });",
      errors: [ignored(5, 21, 'events.on')],
    },
  ],
};

createRuleTester().run<MessageId, Options>('no-orphaned-promise (chat bot handlers)', rule as never, {
  valid: cases.valid.map((code) => ({ code, filename })),
  invalid: cases.invalid.map((c) => ({ ...c, filename })),
});
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (chat bot handlers, recommended)', rule as never, {
  valid: cases.valid.map((code) => ({ code, filename })),
  invalid: cases.invalid.map((c) => ({ ...c, filename })),
});
