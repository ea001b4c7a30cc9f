import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createTypedRuleTester, fixture } from '../ruleTester';

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
    {
      code: WEBHOOK,
      errors: [{
        messageId: 'orphanedPromise', line: 4, column: 3,
        suggestions: [{ messageId: 'addVoid', output: WEBHOOK.replace('hook.send(text);', 'void hook.send(text);') }],
      }],
    },
    {
      code: LISTENER,
      errors: [{
        messageId: 'orphanedPromise', line: 4, column: 36,
        suggestions: [{ messageId: 'addVoid', output: LISTENER.replace("message.channel.send('pong')", "void message.channel.send('pong')") }],
      }],
    },
    {
      code: COMMAND,
      errors: [{
        messageId: 'orphanedPromise', line: 5, column: 5,
        suggestions: [
          { messageId: 'addAwait', output: COMMAND.replace("interaction.reply('hi')", "await interaction.reply('hi')") },
          { messageId: 'addVoid', output: COMMAND.replace("interaction.reply('hi')", "void interaction.reply('hi')") },
        ],
      }],
    },
    {
      code: MONGO,
      errors: [{
        messageId: 'orphanedPromise', line: 5, column: 3,
        suggestions: [
          { messageId: 'addAwait', output: MONGO.replace("client.db('bot')", "await client.db('bot')") },
          { messageId: 'addVoid', output: MONGO.replace("client.db('bot')", "void client.db('bot')") },
        ],
      }],
    },
    {
      code: MAPPED,
      errors: [{
        messageId: 'orphanedPromise', line: 5, column: 5,
        suggestions: [{ messageId: 'addVoid', output: MAPPED.replace('    users.updateOne', '    void users.updateOne') }],
      }],
    },
    {
      code: QUEUED,
      errors: [{
        messageId: 'orphanedPromise', line: 5, column: 5,
        suggestions: [{ messageId: 'addVoid', output: QUEUED.replace('queue.add(', 'void queue.add(') }],
      }],
    },
    {
      code: COMMAND_CLASS,
      errors: [{
        messageId: 'orphanedPromise', line: 4, column: 5,
        suggestions: [
          { messageId: 'addAwait', output: COMMAND_CLASS.replace('interaction.editReply(', 'await interaction.editReply(') },
          { messageId: 'addVoid', output: COMMAND_CLASS.replace('interaction.editReply(', 'void interaction.editReply(') },
        ],
      }],
    },
    {
      code: IN_CATCH,
      errors: [{
        messageId: 'orphanedPromise', line: 4, column: 28,
        suggestions: [{ messageId: 'addVoid', output: IN_CATCH.replace('hook.send(', 'void hook.send(') }],
      }],
    },
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
