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
// The same loader as an ES module (fixtures/esm-loaders): `await import(…)` over the folder, its
// default export kept in a `const` and called from the arrow `client.on` registers.
const esmMemberAdd = fixture('esm-loaders/src/events/guild/memberAdd.js');
const esmReady = fixture('esm-loaders/src/events/guild/ready.js');
const esmPing = fixture('esm-loaders/src/commands/ping.js');

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
    // An ES module's export where the loader uses `require`: that loader reads CommonJS exports.
    { code: `export default async (client, guild) => {\n  await guild.leave();\n};`, filename: guildDelete },
    // A CommonJS export where the loader uses `import()`: it reads `export` declarations.
    { code: `module.exports = async (member) => {\n  await member.send('Welcome!');\n};`, filename: esmMemberAdd },
    // ES module loader: a guarded body, and a command kept in a collection rather than registered.
    { code: `export default async (client) => {\n  try {\n    await client.application.commands.fetch();\n  } catch (error) {\n    console.error(error);\n  }\n};`, filename: esmReady },
    { code: `export async function execute(interaction) {\n  await interaction.reply('pong');\n}`, filename: esmPing },
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
    {
      code: `export default async (member) => {\n  await member.guild.systemChannel.send(\`Welcome, \${member}!\`);\n};`,
      filename: esmMemberAdd,
      errors: [{ messageId: 'loadedListenerIgnored' as const, line: 1, column: 16, data: { loader: '../loader.js', name: 'client.once' } }],
    },
    {
      // Loaded with `import(pathToFileURL(path.join(import.meta.dirname, …)).href)`, its member handed to a timer.
      code: `export const every = 60_000;\n\nexport async function run() {\n  await fetch('https://status.internal/refresh', { method: 'POST' });\n}`,
      filename: fixture('esm-loaders/src/timers/refresh.js'),
      errors: [{ messageId: 'loadedListenerIgnored' as const, line: 3, column: 8, data: { loader: '../handlers/timers.js', name: 'setInterval' } }],
    },
  ],
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (loaded listeners, recommended)', rule as never, cases);
createRuleTester().run<MessageId, Options>('no-orphaned-promise (loaded listeners, strict)', rule as never, cases);
