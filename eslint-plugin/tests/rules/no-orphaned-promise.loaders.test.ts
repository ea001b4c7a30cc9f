import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// A module a loader finds by listing its folder (fixtures/loaders: `handlers/events.js` and
// `main.js`) and registers with `client.on`, which drops the promise the export returns.
const guildDelete = fixture('loaders/src/events/client/guildDelete.js');
const memberAdd = fixture('loaders/src/events/guild/memberAdd.js');
const ready = fixture('loaders/src/events/client/ready.js');
const ping = fixture('loaders/src/commands/ping.js');
const stray = fixture('loaders/src/events/stray.js');

const GUILD_DELETE = `const Guilds = require('../../jobs/guilds');

module.exports = async (client, guild) => {
  await Guilds.forget(guild.id);
  client.emit('cleaned', guild.id);
};`;

const MEMBER_ADD = `module.exports = {
  name: 'guildMemberAdd',
  async execute(member) {
    await member.send('Welcome!');
  },
};`;

const cases = {
  valid: [
    // The whole body is guarded: nothing reaches the emitter.
    {
      code: `module.exports = async (client) => {
  try {
    await client.application.commands.fetch();
  } catch (error) {
    console.error(error);
  }
};`,
      filename: ready,
    },
    // Commands are stored in a collection; the interaction handler awaits them.
    {
      code: `module.exports = {
  data: { name: 'ping' },
  async execute(interaction) {
    await interaction.reply('pong');
  },
};`,
      filename: ping,
    },
    // One folder above the depth the loader reads.
    { code: `module.exports = async (client) => {\n  await client.user.setPresence({ status: 'idle' });\n};`, filename: stray },
    // Not the export: the loader never sees it.
    { code: `async function forget(guild) {\n  await guild.leave();\n}\nmodule.exports = (client, guild) => void forget(guild).catch(console.error);`, filename: guildDelete },
    // An ES module's export: loaders are followed through `require` and CommonJS exports only.
    { code: `export default async (client, guild) => {\n  await guild.leave();\n};`, filename: guildDelete },
    // The user says discord.js listeners are looked after.
    { code: MEMBER_ADD, filename: memberAdd, options: [{ allowedCallbacks: [{ module: 'discord.js', method: 'on' }] }] as Options },
  ],
  invalid: [
    {
      code: GUILD_DELETE,
      filename: guildDelete,
      errors: [{ messageId: 'loadedListenerIgnored' as const, line: 3, column: 18, data: { loader: '../../handlers/events.js', name: 'client.on' } }],
    },
    {
      code: MEMBER_ADD,
      filename: memberAdd,
      errors: [{ messageId: 'loadedListenerIgnored' as const, line: 3, column: 16, data: { loader: '../../main.js', name: 'client.on' } }],
    },
    {
      code: `exports.every = 60_000;\n\nexports.run = async () => {\n  await fetch('https://status.internal/refresh', { method: 'POST' });\n};`,
      filename: fixture('loaders/src/timers/refresh.js'),
      errors: [{ messageId: 'loadedListenerIgnored' as const, line: 3, column: 15, data: { loader: '../handlers/timers.js', name: 'setInterval' } }],
    },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (loaded listeners, recommended)', rule as never, cases);
createRuleTester().run<MessageId, Options>('no-orphaned-promise (loaded listeners, strict)', rule as never, cases);
