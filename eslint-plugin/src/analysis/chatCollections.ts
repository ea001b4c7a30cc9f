import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { contains, findVariable, sameFileCallArguments, skipTransparent, staticPropertyName } from './ast';
import { importedModules } from './imports';
import { isDiscordStructure } from './packagePromises';
import { declaresDependency } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * What a chat framework's collection holds, as far as its size goes:
 * - `data`: grows with the community (a guild's members, channels, roles, invites, bans, threads);
 * - `capped`: the API answers one page at most (a channel's messages: 100 per fetch, 200 cached).
 */
export type ChatCollection = 'data' | 'capped';

/**
 * discord.js managers (`guild.members`, `channel.messages`): `.cache` is a Collection of what the
 * gateway has delivered, `.fetch()` asks the API for all of them. The client's own guild list is
 * left out: a bot's servers are the ones that invited it, and a self-hosted bot has a few.
 */
const DISCORD_MANAGERS: Readonly<Record<string, ChatCollection>> = {
  members: 'data', channels: 'data', roles: 'data', invites: 'data', bans: 'data', threads: 'data', emojis: 'data',
  stickers: 'data', reactions: 'data', users: 'data', messages: 'capped',
};

/** discord.js 12 spelled some fetches as methods of the owner: `guild.fetchInvites()`. */
const DISCORD_FETCHERS: Readonly<Record<string, ChatCollection>> = {
  fetchInvites: 'data', fetchBans: 'data', fetchWebhooks: 'data', fetchMembers: 'data', fetchMessages: 'capped',
};

/** discord.js, and forks published under another name with its structures and managers. */
const CHAT_MODULES: readonly string[] = ['discord.js', '@mx-puppet/better-discord.js', 'discord.js-light'];

/** Whether `filename` belongs to a package built on a chat framework, or imports one itself. */
function usesChatFramework(sourceCode: Services, filename: string): boolean {
  const modules = importedModules(sourceCode);
  return CHAT_MODULES.some((m) => modules.has(m) || (filename !== '' && declaresDependency(filename, m)));
}

/**
 * The framework collection `expr` reads, in a package that uses discord.js: `X.members.cache`,
 * `await X.channels.fetch()` (no id: every one of them), `X.fetchInvites()`, `X.members.array()`. Null for anything
 * else, including `X.members.fetch(id)`, which answers one member.
 */
export function chatCollection(sourceCode: Services, filename: string, node: TSESTree.Node): ChatCollection | null {
  const expr = skipTransparent(node);
  let kind: ChatCollection | null = null;
  if (expr.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(expr) === 'cache') {
    kind = managerKind(expr.object);
  } else if (expr.type === AST_NODE_TYPES.CallExpression) {
    const callee = skipTransparent(expr.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !fetchesAll(expr)) return null;
    const method = staticPropertyName(callee);
    if (method === 'fetch') kind = managerKind(callee.object);
    // discord.js 11 and 12 Collections copy themselves with `array()`: `channel.members.array()`
    // (a channel's members are a Collection, not a manager, in both), `guild.members.array()` in 11.
    else if (method === 'array') kind = managerKind(callee.object);
    else if (method !== null) kind = DISCORD_FETCHERS[method] ?? null;
  }
  return kind !== null && usesChatFramework(sourceCode, filename) ? kind : null;
}

function managerKind(node: TSESTree.Node): ChatCollection | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.MemberExpression) return null;
  const name = staticPropertyName(expr);
  return name !== null && Object.hasOwn(DISCORD_MANAGERS, name) ? (DISCORD_MANAGERS[name] ?? null) : null;
}

/** `fetch()` or `fetch({ … })` asks for the collection; `fetch(id)` for one item of it. */
function fetchesAll(call: TSESTree.CallExpression): boolean {
  const arg = call.arguments[0];
  if (!arg) return true;
  const expr = skipTransparent(arg);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return false;
  // `fetch({ user: id })` is one member; `fetch({ user: [a, b] })` is as many as it names.
  return !expr.properties.some((p) => p.type === AST_NODE_TYPES.Property && !p.computed &&
    p.key.type === AST_NODE_TYPES.Identifier && (p.key.name === 'user' || p.key.name === 'message') &&
    skipTransparent(p.value).type !== AST_NODE_TYPES.ArrayExpression);
}

/** A manager's cache, or a fetch by id, hands out one structure: `client.guilds.cache.get(id)`, `guild.members.fetch(id)`. */
const CACHE_LOOKUPS: ReadonlySet<string> = new Set(['get', 'find', 'first', 'last', 'random']);
/** Properties of a structure that are structures too (`message.guild`, `interaction.member`). */
const STRUCTURE_PROPERTIES: ReadonlySet<string> = new Set(['guild', 'channel', 'member', 'author', 'user', 'message', 'thread']);
/** Properties of a structure that are the id of one (`guild.id`, `interaction.guildId`). */
const ID_PROPERTIES: ReadonlySet<string> = new Set(['id', 'guildId', 'channelId']);

const MAX_ENTITY_DEPTH = 6;

/** Reads of one record by key from a key-value store (Enmap's `get(key, path)` and `ensure`, quick.db's `fetch`). */
const STORE_READS: ReadonlySet<string> = new Set(['get', 'ensure', 'fetch']);

/**
 * Whether `call` reads a store's record under a chat structure's id, in a package that uses
 * discord.js: `settings.get(guild.id)`, `db.fetch(`channels_${message.guild.id}`)`,
 * `store.get('prefix' + interaction.guildId)`. A record a bot keeps under such a key is that
 * community's state, written at run time by its users' commands (its lists hold whatever they
 * add). Not a lookup in discord.js's own managers (`guild.members.fetch(user.id)`: one member).
 */
export function chatRecordRead(sourceCode: Services, filename: string, call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  const key = call.arguments[0];
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !key || !STORE_READS.has(staticPropertyName(callee) ?? '')) return false;
  const store = skipTransparent(callee.object);
  if (isManager(store) || (store.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(store) === 'cache')) return false;
  return usesChatFramework(sourceCode, filename) && isEntityKey(sourceCode, key, 0);
}

function isEntityKey(sourceCode: Services, node: TSESTree.Node, depth: number): boolean {
  const expr = skipTransparent(node);
  if (depth > MAX_ENTITY_DEPTH) return false;
  switch (expr.type) {
    case AST_NODE_TYPES.MemberExpression: {
      const name = staticPropertyName(expr);
      return name !== null && ID_PROPERTIES.has(name) && isEntity(sourceCode, expr.object, depth + 1);
    }
    case AST_NODE_TYPES.TemplateLiteral:
      return expr.expressions.some((e) => isEntityKey(sourceCode, e, depth + 1));
    case AST_NODE_TYPES.BinaryExpression:
      return expr.operator === '+' && (isEntityKey(sourceCode, expr.left, depth + 1) || isEntityKey(sourceCode, expr.right, depth + 1));
    case AST_NODE_TYPES.Identifier: {
      const init = unchangedInit(sourceCode, expr);
      return init !== null && isEntityKey(sourceCode, init, depth + 1);
    }
    default:
      return false;
  }
}

/**
 * A discord.js structure: one a listener or handler is handed (or declared as one), a structure
 * property of one, one looked up in a manager's cache or fetched by id, or a parameter every
 * same-file caller passes one to (`getStreams(client.guilds.cache.get(id))`).
 */
function isEntity(sourceCode: Services, node: TSESTree.Node, depth: number): boolean {
  let expr = skipTransparent(node);
  if (depth > MAX_ENTITY_DEPTH) return false;
  if (expr.type === AST_NODE_TYPES.AwaitExpression) expr = skipTransparent(expr.argument);
  if (isDiscordStructure(sourceCode, expr)) return true;
  if (expr.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(expr);
    return name !== null && STRUCTURE_PROPERTIES.has(name) && isEntity(sourceCode, expr.object, depth + 1);
  }
  if (expr.type === AST_NODE_TYPES.CallExpression) return looksUpOne(expr);
  if (expr.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, expr);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'Parameter') {
    const fn = def.node as FunctionNode;
    const index = fn.params.findIndex((p) => contains(p, def.name));
    if (fn.params[index] !== def.name) return false;
    const args = sameFileCallArguments(sourceCode, fn, index);
    return args !== null && args.length > 0 && args.every((a) => a !== null && isEntity(sourceCode, a, depth + 1));
  }
  const init = unchangedInit(sourceCode, expr);
  return init !== null && isEntity(sourceCode, init, depth + 1);
}

/** `X.guilds.cache.get(id)`, `X.members.cache.find(fn)`, `X.channels.fetch(id)`: one structure of a manager. */
function looksUpOne(call: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = staticPropertyName(callee);
  const object = skipTransparent(callee.object);
  if (method === 'fetch') return !fetchesAll(call) && isManager(object);
  if (method === null || !CACHE_LOOKUPS.has(method)) return false;
  return object.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(object) === 'cache' && isManager(object.object);
}

/** A manager property, the client's guild list included: one guild of it is still a community. */
function isManager(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return expr.type === AST_NODE_TYPES.MemberExpression && (managerKind(expr) !== null || staticPropertyName(expr) === 'guilds');
}

/** The initializer of a variable declared once and never assigned again. */
function unchangedInit(sourceCode: Services, id: TSESTree.Identifier): TSESTree.Node | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id !== def.name || !def.node.init) return null;
  return variable?.references.every((ref) => !ref.isWrite() || ref.init) ? def.node.init : null;
}
