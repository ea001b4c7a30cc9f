import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { packagePromiseCall } from '../../src/analysis';
import { parse } from './parse';

/** For each call whose callee reads `callee`, in source order: the package it is tied to, or null. */
const modules = (code: string, callee: string): (string | null)[] => {
  const parsed = parse(code);
  return parsed.all(AST_NODE_TYPES.CallExpression)
    .filter((call) => parsed.sourceCode.getText(call.callee) === callee)
    .map((call) => packagePromiseCall(parsed.sourceCode, call)?.module ?? null);
};

describe('package promises: discord.js', () => {
  it('knows a webhook client by its construction, not a Collection from the same package', () => {
    const code = `import { WebhookClient, Collection } from 'discord.js';
const hook = new WebhookClient({ url });
const seen = new Collection();
hook.send('up');
seen.delete('x');`;
    assert.deepEqual(modules(code, 'hook.send'), ['discord.js']);
    assert.deepEqual(modules(code, 'seen.delete'), [null]);
  });

  it('knows the structures a client listener receives, and their structures and managers', () => {
    const code = `const { Client } = require('discord.js');
const client = new Client({ intents: [] });
client.on('messageCreate', (message) => {
  message.reply('pong');
  message.channel.send('pong');
  message.guild.members.cache.get(id).roles.add(role);
  message.content.replace('a', 'b');
  client.commands.delete('old');
  message.guild.members.cache.delete(id);
});`;
    assert.deepEqual(modules(code, 'message.reply'), ['discord.js']);
    assert.deepEqual(modules(code, 'message.channel.send'), ['discord.js']);
    assert.deepEqual(modules(code, 'message.guild.members.cache.get(id).roles.add'), ['discord.js']);
    // A user's own property on the client, and a cache (a Map), are not requests.
    assert.deepEqual(modules(code, 'client.commands.delete'), [null]);
    assert.deepEqual(modules(code, 'message.guild.members.cache.delete'), [null]);
  });

  it('knows a parameter declared with a discord.js type', () => {
    const code = `import type { Message } from 'discord.js';
export function answer(m: Message, other: Record<string, unknown>) { m.reply('x'); }`;
    assert.deepEqual(modules(code, 'm.reply'), ['discord.js']);
  });

  it('knows the message a command module exports a handler for, only in code built on discord.js', () => {
    const exported = `const { Events } = require('discord.js');
module.exports = { name: Events.MessageCreate, async execute(message) { message.reply('hi'); } };
exports.run = async (client, msg) => { msg.reply('hi'); };
function helper(message) { message.reply('hi'); }`;
    assert.deepEqual(modules(exported, 'message.reply'), ['discord.js', null]);
    assert.deepEqual(modules(exported, 'msg.reply'), ['discord.js']);
    const elsewhere = `exports.run = async (message) => { message.reply('hi'); };`;
    assert.deepEqual(modules(elsewhere, 'message.reply'), [null]);
  });

  it('knows the message of a handler an ES module exports as a const, not of one it only declares or returns', () => {
    const code = `import { Events } from 'discord.js';
export const name = Events.MessageCreate;
export const execute = async (message) => { message.reply('hi'); };
export const command = { async run(interaction) { interaction.reply('hi'); } };
const local = async (message) => { message.reply('local'); };
export const later = () => async (message) => { message.reply('nested'); };`;
    assert.deepEqual(modules(code, 'message.reply'), ['discord.js', null, null]);
    assert.deepEqual(modules(code, 'interaction.reply'), ['discord.js']);
  });

  it('knows the interaction of a method of an exported command class', () => {
    const code = `const { Command } = require('./framework');
const { MessageFlags } = require('discord.js');
module.exports = class extends Command {
  async run(interaction) { interaction.editReply('done'); }
  static describe(interaction) { interaction.editReply('static'); }
};
class Local { run(interaction) { interaction.editReply('local'); } }`;
    assert.deepEqual(modules(code, 'interaction.editReply'), ['discord.js', null, null]);
  });

  it('knows a parameter whose JSDoc types it from discord.js, by its own name only', () => {
    const code = `const helpers = {
  /**
   * @param {import("discord.js").ButtonInteraction|import("discord.js").SelectMenuInteraction} button
   * @param {object} options
   */
  async confirm(client, button, options) {
    button.reply('x');
    options.reply('y');
  },
};`;
    assert.deepEqual(modules(code, 'button.reply'), ['discord.js']);
    assert.deepEqual(modules(code, 'options.reply'), [null]);
  });
});

describe('package promises: mongodb and mongoose', () => {
  it('follows a client to its databases and collections; a callback means no promise', () => {
    const code = `const mongodb = require('mongodb');
const client = new mongodb.MongoClient(uri);
const users = client.db('app').collection('users');
client.db('app').collection('logs').insertMany(docs);
users.updateOne({ id }, { $set: { seen: true } });
users.updateOne({ id }, { $set: { seen: true } }, (error) => {});
users.find({ id });`;
    assert.deepEqual(modules(code, "client.db('app').collection('logs').insertMany"), ['mongodb']);
    assert.deepEqual(modules(code, 'users.updateOne'), ['mongodb', null]);
    assert.deepEqual(modules(code, 'users.find'), [null]);
  });

  it('knows a model and its documents; a query nobody awaits is another matter', () => {
    const code = `import mongoose from 'mongoose';
const User = mongoose.model('User', schema);
async function touch(id) {
  User.create({ id });
  User.updateOne({ id }, { seen: true });
  new User({ id }).save();
  const found = await User.findOne({ id });
  found.save();
  const plain = await load(id);
  plain.save();
}`;
    assert.deepEqual(modules(code, 'User.create'), ['mongoose']);
    assert.deepEqual(modules(code, 'User.updateOne'), [null]);
    assert.deepEqual(modules(code, 'new User({ id }).save'), ['mongoose']);
    assert.deepEqual(modules(code, 'found.save'), ['mongoose']);
    assert.deepEqual(modules(code, 'plain.save'), [null]);
  });
});

describe('package promises: queues and limiters', () => {
  it('names the task whose failure rejects the promise', () => {
    const code = `import PQueue from 'p-queue';
import Bottleneck from 'bottleneck';
import pLimit from 'p-limit';
const queue = new PQueue({ concurrency: 1 });
const limiter = new Bottleneck({ maxConcurrent: 1 });
const limit = pLimit(2);
const seen = new Set();
queue.add(task);
limiter.schedule({ priority: 1 }, task);
limit(task);
seen.add(task);`;
    const parsed = parse(code);
    const tasks = parsed.all(AST_NODE_TYPES.CallExpression).map((call) => {
      const found = packagePromiseCall(parsed.sourceCode, call);
      return found ? `${parsed.sourceCode.getText(call.callee)} ${found.module} ${found.task ? parsed.sourceCode.getText(found.task) : '-'}` : null;
    }).filter((line) => line !== null);
    assert.deepEqual(tasks, ['queue.add p-queue task', 'limiter.schedule bottleneck task', 'limit p-limit task']);
  });
});
