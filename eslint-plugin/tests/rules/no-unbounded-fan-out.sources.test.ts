import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import { getEvidence } from '../../src/util/evidence';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { dropped, report } from './fanOutErrors';

// Data origins read from catalogues (chat frameworks, result wrappers, lodash) and from what the
// code shows about helpers the lint cannot read. The folder declares neither p-map nor p-limit.
const NONE = fixture('fan-out/none/batch.ts');

// A guild's record from a store the lint cannot read, cut to ten entries (a near miss; uncut, it is reported).
const SLICED_RECORD = `const { Client } = require('discord.js');
const { feeds } = require('./feeds');
const { lookup } = require('./twitch');
const client = new Client({ intents: [] });
client.on('guildCreate', async (guild) => {
  const settings = feeds.get(guild.id);
  await Promise.all(settings.streamers.slice(0, 10).map((s) => lookup(s.name)));
});`;

const fromData: InvalidTestCase<MessageId, Options>[] = [
  { code: SLICED_RECORD.replace('.slice(0, 10)', ''), errors: [report(7)] },
  {
    // every channel of a guild, from discord.js's cache (the callback keeps its errors: a rejecting one is no-orphaned-promise's)
    code: `import { PermissionsBitField } from 'discord.js';
export async function clear(interaction, userId) {
  if (!interaction.memberPermissions.has(PermissionsBitField.Flags.ManageMessages)) return;
  interaction.guild.channels.cache.forEach(async (channel) => {
    try {
      const messages = await channel.messages.fetch();
      await channel.bulkDelete(messages.filter((m) => m.author.id === userId));
    } catch (error) {
      console.error(error);
    }
  });
}`,
    errors: [dropped(4, 'forEach', 'interaction.guild.channels.cache')],
  },
  {
    // a guild's invites fetched through the discord.js 12 method, then one update each
    code: `const { Collection } = require('discord.js');
const { save } = require('./store');
module.exports = async function sync(guild) {
  const invites = new Collection((await guild.fetchInvites()).map((i) => [i.code, i]));
  await Promise.all(invites.filter((i) => i.uses > 0).map((i) => save(i)));
};`,
    errors: [report(5)],
  },
  {
    // an awaited helper from a module the lint cannot read: whatever it is called, it loaded a collection
    code: `import { listBars } from './data/database/bars';
import { notify } from './notify';
export async function run() {
  const entries = await listBars();
  await Promise.all(entries.map((e) => notify(e.userId)));
}`,
    errors: [report(5)],
  },
  {
    // the same through a result wrapper, unwrapped, then walked by reduce: the accumulator is not an item
    code: `import { Result } from 'oxide.ts';
import { listAllThreads } from '../src/threads';
import { bump } from './bump';
export async function run() {
  const settings = await Result.safe(listAllThreads());
  const data = settings.unwrap();
  return data.reduce(async (previous, { threadIds }) => {
    await previous;
    await Promise.all(threadIds.map((id) => bump(id)));
  }, Promise.resolve());
}`,
    errors: [report(9, 11)],
  },
  {
    // a filter by a set read off each item bounds nothing: still every row
    code: `import { Pool } from 'pg';
import { send } from './mail';
const pool = new Pool();
export async function run(tag: string) {
  const { rows } = await pool.query('select * from users');
  await Promise.all(rows.filter((u) => u.tags.has(tag)).map((u) => send(u)));
}`,
    errors: [report(6)],
  },
  {
    // a store object the rows are put in, read back through a snapshot
    code: `import { proxy, snapshot } from 'valtio/vanilla';
import { Pool } from 'pg';
import { quote } from './quotes';
const pool = new Pool();
const state = proxy({ pairs: [] as { id: string }[] });
export async function refresh() {
  const { rows } = await pool.query('select * from pairs');
  state.pairs = rows;
}
export async function prices() {
  const { pairs } = snapshot(state);
  return Promise.all(pairs.map((p) => quote(p.id)));
}`,
    errors: [report(12, 10)],
  },
  {
    // a directory listing whose files are each read: every read holds a descriptor open
    code: `import { readdir, readFile } from 'node:fs/promises';
export async function loadAll(dir: string) {
  const names = await readdir(dir);
  return Promise.all(names.map((n) => readFile(dir + n, 'utf8')));
}`,
    errors: [report(4, 10)],
  },
  {
    // a guild's record in a key-value store the bot keeps on its client: its list is what the guild's admins added
    code: `const { EmbedBuilder } = require('discord.js');
const { lookup } = require('./twitch');
module.exports = (client) => {
  function announce(guild) {
    const settings = client.feeds.get(guild.id, 'twitch');
    settings.streamers.map(async (s) => {
      const live = await lookup(s.name);
      if (live) await guild.channels.cache.get(settings.channel).send({ embeds: [new EmbedBuilder().setTitle(s.name)] });
    });
  }
  for (const id of client.feeds.keys()) {
    const guild = client.guilds.cache.get(id);
    if (guild) announce(guild);
  }
};`,
    errors: [{ ...dropped(6, 'map', 'settings.streamers'), column: 5 }],
  },
  {
    // the same record under a key built from the interaction's guild (quick.db style)
    code: `import type { ChatInputCommandInteraction } from 'discord.js';
export async function execute(interaction: ChatInputCommandInteraction) {
  const roles = await interaction.client.db.get(\`autoroles_\${interaction.guildId}\`);
  await Promise.all(roles.map((id) => interaction.guild.members.cache.get(interaction.user.id).roles.add(id)));
}`,
    errors: [report(4)],
  },
  {
    // one sync per member of a channel (a Collection copied with `array()`, in a discord.js fork);
    // a growing delay spaces the starts but all of them run together
    code: `import * as Discord from '@mx-puppet/better-discord.js';
import { sync } from './sync';
export async function joinAll(channel: Discord.TextChannel, step: number) {
  const pending: Promise<void>[] = [];
  let delay = step;
  for (const member of channel.members.array()) {
    pending.push((async () => {
      await new Promise((r) => setTimeout(r, delay));
      await sync(member);
    })());
    delay += step;
  }
  await Promise.all(pending);
}`,
    errors: [report(13)],
  },
];

const quietInRecommended: (ValidTestCase<Options> | string)[] = [
  // The bot's own guild list: the servers that invited it (strict reports it).
  `import { Events } from 'discord.js';
import { refresh } from './refresh';
export function start(client) {
  client.on(Events.ClientReady, async () => {
    await Promise.all(client.guilds.cache.map((guild) => refresh(guild)));
  });
}`,
  // The user's guilds from the API, kept only when the bot is in them too: no more than the bot's list.
  `import { privilegeLevel } from './users';
export async function guilds(req, client) {
  const all = await (await fetch('https://discord.com/api/users/@me/guilds')).json();
  return Promise.all(all.filter((g) => client.guilds.cache.has(g.id)).map(async (g) => privilegeLevel(await client.guilds.cache.get(g.id).members.fetch(req.user.id))));
}`,
  // A store read under a key the program wrote itself: nothing ties the record to a guild (strict reports it).
  `const { Client } = require('discord.js');
const { lookup } = require('./twitch');
module.exports = async (client) => {
  const settings = client.feeds.get('global');
  await Promise.all(settings.streamers.map((s) => lookup(s.name)));
};`,
];

const quietInBoth: (ValidTestCase<Options> | string)[] = [
  // A hand-written table keyed by guild id: the program's own list, whatever key reads it.
  `const { Client } = require('discord.js');
const { lookup } = require('./twitch');
const FEEDS = new Map([['1', ['alice', 'bob']]]);
module.exports = async (client, guild) => {
  await Promise.all(FEEDS.get(guild.id).map((name) => lookup(name)));
};`,
  // The guild's record, cut to its first ten entries.
  SLICED_RECORD,
  // One member fetched by id from discord.js itself is no store record, and its handful of roles is declared here.
  `import { Events } from 'discord.js';
import { log } from './log';
export function watch(client) {
  client.on(Events.MessageCreate, async (message) => {
    const member = await message.guild.members.fetch(message.author.id);
    await Promise.all([member.displayName, member.id].map((x) => log(x)));
  });
}`,
  // A store object of the program's own list: a flag set on it makes it no less declared.
  `import { ping } from './ping';
const state = { regions: ['eu', 'us'], ready: false };
export async function pingAll(ok: boolean) {
  state.ready = ok;
  await Promise.all(state.regions.map((r) => ping(r)));
}`,
  // A channel's messages copied with `array()`: still one page at most.
  `import * as Discord from '@mx-puppet/better-discord.js';
export async function sweep(channel: Discord.TextChannel) {
  await Promise.all(channel.messages.array().map((m) => m.delete()));
}`,
  // A channel's messages: one page of the API at most.
  `import { ChannelType } from 'discord.js';
export async function sweep(channel) {
  if (channel.type !== ChannelType.GuildText) return;
  const messages = await channel.messages.fetch();
  await Promise.all(messages.map((m) => m.delete()));
}`,
  // Stale files removed from a listing: each rm is one thread-pool request, queued a few at a time.
  `import fsp from 'node:fs/promises';
import path from 'node:path';
export async function prune(dir: string, keep: Set<string>) {
  const entries = await fsp.readdir(dir);
  await Promise.all(entries.map(async (name) => {
    if (!keep.has(name)) await fsp.rm(path.join(dir, name), { force: true });
  }));
}`,
  // A recursive walk that only stats: the same, one level at a time.
  `import { lstat, readdir } from 'node:fs/promises';
export async function collect(dir: string, found: string[]): Promise<void> {
  const entries = await readdir(dir);
  await Promise.all(entries.map(async (entry) => {
    const stats = await lstat(dir + '/' + entry);
    if (stats.isDirectory()) await collect(dir + '/' + entry, found);
    else found.push(entry);
  }));
}`,
];

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, catalogued and unreadable sources)', rule, {
  valid: [...quietInRecommended, ...quietInBoth].map((c) => (typeof c === 'string' ? { code: c, filename: NONE } : { filename: NONE, ...c })),
  invalid: fromData.map((c) => ({ filename: NONE, ...c })),
});

createRuleTester().run('no-unbounded-fan-out (strict, catalogued and unreadable sources)', rule, {
  valid: quietInBoth.map((c) => (typeof c === 'string' ? { code: c, filename: NONE } : { filename: NONE, ...c })),
  invalid: [
    ...fromData.map((c) => ({ filename: NONE, ...c })),
    { code: quietInRecommended[0] as string, filename: NONE, errors: [report(5, 11)] },
    { code: quietInRecommended[1] as string, filename: NONE, errors: [report(4, 10)] },
    { code: quietInRecommended[2] as string, filename: NONE, errors: [report(5)] },
  ],
});

// A package of the workspace (tests/fixtures/fan-out-workspace) is the project's own code: when its
// entry file is not in the folder, what its client answers is loaded data, as for a missing `./db`.
const WORKER = fixture('fan-out-workspace/apps/worker/poll.ts');
const FROM_WORKSPACE = `import { prisma } from '@acme/db';
import { poll } from './feeds';
export async function pollAll() {
  const feeds = await prisma.feed.findMany({ where: { active: true } });
  await Promise.allSettled(feeds.map(async (feed) => poll(feed.url)));
}`;
const IN_TRANSACTION = `import { prisma } from '@acme/db';
import { removeFolder } from './files';
export async function removeOwner(ownerId: number) {
  await prisma.$transaction(async (tx) => {
    const collections = await tx.collection.findMany({ where: { ownerId } });
    await Promise.all(collections.map(async (c) => removeFolder(\`archives/\${c.id}\`)));
  });
}`;
// A never-reassigned \`let\` holds what the unreadable module made, as a \`const\` would.
const LET_INSTANCE = `const yapi = require('../yapi.js');
const projectModel = require('../models/project.js');
const { purge } = require('./purge');
async function del(id) {
  let projectInst = yapi.getInst(projectModel);
  let projectList = await projectInst.list(id, true);
  await Promise.all(projectList.map(async (p) => purge(p._id)));
}
module.exports = { del };`;

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, workspace packages and unreadable clients)', rule, {
  valid: [
    // Near miss: one page of the same rows.
    { code: FROM_WORKSPACE.replace('{ where: { active: true } }', '{ where: { active: true }, take: 50 }'), filename: WORKER },
    // Near miss: a workspace package the lint can read, whose export is a literal list.
    { code: FROM_WORKSPACE.replace("import { prisma } from '@acme/db';", "import { store } from '@acme/store';").replace('prisma.feed.findMany({ where: { active: true } })', 'store.feeds()'), filename: WORKER },
    // Near miss: the entry is build output (dist/) of sources the package holds: unbuilt, not unreadable.
    {
      code: `import { execute } from '@acme/query';
import { describeCategory } from './categories';
export async function path(pool, id: number) {
  const { rows } = await execute(pool, \`select parent_id from category where id = \${id}\`);
  return Promise.all(rows.map((row) => describeCategory(pool, row.parent_id)));
}`,
      filename: WORKER,
    },
    // Near miss: a bare package that is no package of the workspace (only strict speaks of it).
    { code: FROM_WORKSPACE.replace("'@acme/db'", "'@acme/not-in-workspace'"), filename: WORKER },
    // Near miss: a transaction whose callback parameter is not the client's handle (a second parameter).
    { code: IN_TRANSACTION.replace('async (tx) =>', 'async (_unused, tx) =>'), filename: WORKER },
    // Near miss: the \`let\` is assigned again, so what it holds when read is not known.
    { code: LET_INSTANCE.replace('  let projectList', '  if (id === 0) projectInst = other;\n  let projectList').replace("const { purge } = require('./purge');", "const { purge, other } = require('./purge');"), filename: NONE },
  ],
  invalid: [
    { code: FROM_WORKSPACE, filename: WORKER, errors: [report(5)] },
    { code: IN_TRANSACTION, filename: WORKER, errors: [report(6, 11)] },
    { code: LET_INSTANCE, filename: NONE, errors: [report(7)] },
  ],
});

// `readFile` of a JSON file at a fixed path of the program's tree, which the file never writes, is its configuration.
const CONFIG_JSON = `import { readFile } from 'node:fs/promises';
import { react } from './chat';
export async function addReactions(message) {
  const emotes = new Map(JSON.parse(await readFile('./config/emotes.json', 'utf8')));
  const added = [];
  for (const [emoji] of emotes) added.push(await react(message, emoji));
  await Promise.all(added.map((reaction) => reaction.remove()));
}`;

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, JSON configuration read at run time)', rule, {
  valid: [{ code: CONFIG_JSON, filename: NONE }],
  invalid: [
    // Near miss: a path built from input is not the program's own file.
    { code: CONFIG_JSON.replace("'./config/emotes.json'", 'message.path'), filename: NONE, errors: [report(7)] },
    // Near miss: the file also writes it, so it is a store the program fills.
    {
      code: CONFIG_JSON.replace("import { react } from './chat';", "import { writeFile } from 'node:fs';\nimport { react } from './chat';").replace(
        '  await Promise.all', "  writeFile('./config/emotes.json', '[]', () => {});\n  await Promise.all"),
      filename: NONE,
      errors: [report(9)],
    },
  ],
});

// A listing of a fixed folder of the package that holds its own modules (tests/fixtures/fan-out-listing/src/events)
// is the program's code: as many items as are checked in.
const LOADER = fixture('fan-out-listing/src/loader.js');
const EVENT_LOADER = `import { readdir } from 'node:fs/promises';
export default async (client) => {
  const entries = await readdir('./src/events', { withFileTypes: true });
  const categories = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  await Promise.all(categories.map(async (category) => {
    const files = await readdir(\`./src/events/\${category}\`);
    for (const file of files) client.on(file, (await import(\`./events/\${category}/\${file}\`)).default);
  }));
};`;

createRecommendedRuleTester().run('no-unbounded-fan-out (recommended, listings of the program\'s own modules)', rule, {
  valid: [{ code: EVENT_LOADER, filename: LOADER }],
  invalid: [
    // Near miss: a folder of uploaded files is data, whatever the program checked in there.
    { code: EVENT_LOADER.replace("readdir('./src/events'", "readdir('./uploads'"), filename: LOADER, errors: [report(5)] },
    // Near miss: a folder named at run time.
    { code: EVENT_LOADER.replace("readdir('./src/events'", 'readdir(process.env.EVENTS_DIR'), filename: LOADER, errors: [report(5)] },
  ],
});

describe('no-unbounded-fan-out: a pushed fan-out names its push and its loop', () => {
  it('points at the call pushed per round and at the loop that walks the collection', () => {
    const linter = new Linter({ configType: 'flat' });
    const messages = linter.verify(
      fromData.find((c) => c.code.includes('channel.members.array()'))?.code ?? '',
      [{
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as never },
        plugins: { 'async-hazards': { rules: { 'no-unbounded-fan-out': rule as never } } },
        rules: { 'async-hazards/no-unbounded-fan-out': 'error' },
      }],
      NONE,
    );
    assert.equal(messages.length, 1, JSON.stringify(messages));
    const related = (getEvidence(linter.getSourceCode() as object)[0]?.related ?? []).map((r) => `${r.line}:${r.column} ${r.message}`);
    assert.deepEqual(related, ['7:4 one call starts here per loop iteration', '6:2 the loop over the collection']);
  });
});
