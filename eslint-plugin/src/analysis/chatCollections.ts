import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { skipTransparent, staticPropertyName } from './ast';
import { importedModules } from './imports';
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

const CHAT_MODULES: readonly string[] = ['discord.js'];

/** Whether `filename` belongs to a package built on a chat framework, or imports one itself. */
function usesChatFramework(sourceCode: Services, filename: string): boolean {
  const modules = importedModules(sourceCode);
  return CHAT_MODULES.some((m) => modules.has(m) || (filename !== '' && declaresDependency(filename, m)));
}

/**
 * The framework collection `expr` reads, in a package that uses discord.js: `X.members.cache`,
 * `await X.channels.fetch()` (no id: every one of them), `X.fetchInvites()`. Null for anything
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
