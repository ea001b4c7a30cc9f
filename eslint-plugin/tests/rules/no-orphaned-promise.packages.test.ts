import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createTypedRuleTester, fixture } from '../ruleTester';
import { dropped } from './orphanedCases';

// Promise-returning methods of well-known packages, known without types by where the receiver
// comes from: a construction from the package, a listener parameter of its client, a handler a
// command module exports in code built on discord.js. The name of a method alone is not enough.

const WEBHOOK = `import { WebhookClient } from 'discord.js';
const hook = new WebhookClient({ url: process.env.HOOK });
export function announce(text) {
  hook.send(text);
}`;
const LISTENER = `const { Client } = require('discord.js');
const client = new Client({ intents: [] });
client.on('messageCreate', (message) => {
  if (message.content === '!ping') message.channel.send('pong');
});`;
const COMMAND = `const { Events } = require('discord.js');
module.exports = {
  name: Events.InteractionCreate,
  async execute(interaction) {
    interaction.reply('hi');
  },
};`;
// The same handler exported by an ES module as a const.
const COMMAND_CONST = `import { Events } from 'discord.js';
export const name = Events.MessageCreate;
export const execute = async (message) => {
  message.reply('hi');
};`;
const MONGO = `const { MongoClient } = require('mongodb');
const client = new MongoClient(process.env.MONGO);
exports.track = async (invites) => {
  await client.connect();
  client.db('bot').collection('invites').insertMany(invites);
};`;
// A block-bodied map callback that creates the promise and returns nothing: `Promise.all` waits for nothing.
const MAPPED = `const { MongoClient } = require('mongodb');
const users = new MongoClient(process.env.MONGO).db('bot').collection('users');
exports.touch = async (ids) => {
  await Promise.all(ids.map((id) => {
    users.updateOne({ id }, { $set: { seen: true } });
  }));
};`;
// The `try` covers the synchronous start only: its `catch` never sees the task's rejection.
const QUEUED = `import PQueue from 'p-queue';
const queue = new PQueue({ concurrency: 1 });
export function refresh(url) {
  try {
    queue.add(async () => { await fetch(url); });
  } catch (error) {
    console.error(error);
  }
}`;
// A framework's command class, exported: its `run` gets the interaction.
const COMMAND_CLASS = `const { MessageFlags } = require('discord.js');
module.exports = class extends Command {
  async run(interaction) {
    interaction.editReply({ content: 'done', flags: MessageFlags.Ephemeral });
  }
};`;
// Created inside a rejection handler and dropped: the handler's own failure is unhandled.
const IN_CATCH = `import { WebhookClient } from 'discord.js';
const hook = new WebhookClient({ url: process.env.HOOK });
export function run(job) {
  job().catch((error) => { hook.send(String(error)); });
}`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (package promises)', rule as never, {
  valid: [
    // Awaited, handled, voided.
    WEBHOOK.replace('export function announce(text) {\n  hook.send(text);', 'export async function announce(text) {\n  await hook.send(text);'),
    WEBHOOK.replace('hook.send(text);', 'hook.send(text).catch(console.error);'),
    WEBHOOK.replace('hook.send(text);', 'void hook.send(text);'),
    // A Collection from the same package is a Map: `delete` is no request.
    "import { Collection } from 'discord.js';\nconst cooldowns = new Collection();\nexport function clear(id) { cooldowns.delete(id); }",
    // The same method names on objects nothing ties to discord.js: a local helper's parameter, a user's own client property.
    "function answer(message) { message.reply('hi'); }\nanswer({ reply() {} });",
    "exports.run = async (message) => { message.reply('hi'); };",
    COMMAND_CONST.replace('export const execute', 'const execute'),
    LISTENER.replace("message.channel.send('pong')", "client.commands.delete('ping')"),
    // A class nobody exports: nothing says who calls `run`, or with what.
    COMMAND_CLASS.replace('module.exports = class extends Command', 'class Draft'),
    // mongodb with a callback returns nothing; a mongoose query nobody awaits never runs (not this report).
    MONGO.replace('insertMany(invites);', 'insertMany(invites, (error) => { if (error) console.error(error); });'),
    "import mongoose from 'mongoose';\nconst User = mongoose.model('User', new mongoose.Schema({}));\nexport function touch(id) { User.updateOne({ id }, { seen: true }); }",
    // A queued task that catches its own errors cannot reject; a Set's `add` is no queue.
    QUEUED.replace('{ await fetch(url); }', '{ try { await fetch(url); } catch (error) { console.error(error); } }'),
    "const seen = new Set();\nexport function mark(url) { seen.add(url); }",
  ],
  invalid: [
    dropped(WEBHOOK, 4, 3, 'hook.send(text);'),
    dropped(LISTENER, 4, 36, "message.channel.send('pong')"),
    dropped(COMMAND, 5, 5, "interaction.reply('hi')", true),
    dropped(COMMAND_CONST, 4, 3, "message.reply('hi')", true),
    dropped(MONGO, 5, 3, "client.db('bot')", true),
    dropped(MAPPED, 5, 5, 'users.updateOne'),
    dropped(QUEUED, 5, 5, 'queue.add('),
    dropped(COMMAND_CLASS, 4, 5, 'interaction.editReply(', true),
    dropped(IN_CATCH, 4, 28, 'hook.send('),
  ],
});

// With types, the checker only adds: discord.js is not installed there, so the type is `any`, and
// the syntactic finding stands.
createTypedRuleTester().run<MessageId, Options>('no-orphaned-promise (package promises, typed)', rule as never, {
  valid: [{ code: WEBHOOK.replace('hook.send(text);', 'hook.send(text).catch(console.error);'), filename: fixture('package-promises.ts') }],
  invalid: [{
    code: WEBHOOK,
    filename: fixture('package-promises.ts'),
    errors: [{
      messageId: 'orphanedPromise', line: 4, column: 3,
      suggestions: [{ messageId: 'addVoid', output: WEBHOOK.replace('hook.send(text);', 'void hook.send(text);') }],
    }],
  }],
});
