import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  awaitsUnreadableHelper, carriedValue, chatCollection, chatRecordRead, isAllPagesListing, isFunctionNode, isOnePageListing, isThreadPoolWork, membershipBound,
  moduleSourceCode, requestPageSize, resolverArgsIndex, runningFunction, valueOrigin, walk,
} from '../../src/analysis';
import { resetProject } from '../../src/project';
import { scratch, write } from '../project/helpers';
import { parse } from './parse';

// Where a collection's items come from, from catalogues and from what the code around it shows.

describe('chat framework collections', () => {
  const code = `import { Client } from 'discord.js';
export async function run(guild, channel, client, id) {
  const a = guild.members.cache;
  const b = await guild.channels.fetch();
  const c = await guild.members.fetch(id);
  const d = await channel.messages.fetch();
  const e = await guild.fetchInvites();
  const f = client.guilds.cache;
  const g = await guild.members.fetch({ user: id });
  const h = await guild.members.fetch({ user: [id, id] });
  const i = guild.cache;
}`;
  const kinds = (source: string, filename = 'file.js'): Record<string, string | null> => {
    const parsed = parse(source, filename);
    const out: Record<string, string | null> = {};
    for (const d of parsed.all(AST_NODE_TYPES.VariableDeclarator)) {
      if (d.id.type !== AST_NODE_TYPES.Identifier || !d.init) continue;
      const init = d.init.type === AST_NODE_TYPES.AwaitExpression ? d.init.argument : d.init;
      out[d.id.name] = chatCollection(parsed.sourceCode, '', init);
    }
    return out;
  };

  it('reads managers of a guild as data and a channel\'s messages as one page', () => {
    assert.deepEqual(kinds(code), { a: 'data', b: 'data', c: null, d: 'capped', e: 'data', f: null, g: null, h: 'data', i: null });
  });

  it('reads a Collection copied with array() by what it copies, in discord.js and its forks', () => {
    const copies = `import * as Discord from '@mx-puppet/better-discord.js';
export function run(guild, channel, list) {
  const a = channel.members.array();
  const b = channel.messages.array();
  const c = list.array();
  const d = guild.members.cache.array();
}`;
    assert.deepEqual(kinds(copies), { a: 'data', b: 'capped', c: null, d: null });
    assert.deepEqual(kinds(copies.replace('@mx-puppet/better-discord.js', './discord')), { a: null, b: null, c: null, d: null });
  });

  it('says nothing in a file that does not use discord.js', () => {
    const plain = kinds(code.replace(`import { Client } from 'discord.js';`, `import { Client } from './client';`));
    assert.ok(Object.values(plain).every((k) => k === null));
  });
});

describe('chat community records', () => {
  const code = `import { Client, Events } from 'discord.js';
const client = new Client({ intents: [] });
export function watch(store) {
  function show(guild) {
    return store.get(guild.id);
  }
  client.on(Events.MessageCreate, async (message) => {
    const a = store.get(message.guild.id);
    const b = store.fetch(\`roles_\${message.guildId}\`);
    const c = store.get('prefix' + message.author.id);
    const d = store.get('global');
    const e = message.guild.members.fetch(message.author.id);
    const f = message.guild.roles.cache.get(message.guild.id);
    const g = store.get(message.content);
  });
  show(client.guilds.cache.get('1'));
}`;
  const reads = (source: string): Record<string, boolean> => {
    const parsed = parse(source, 'file.js');
    const out: Record<string, boolean> = {};
    for (const d of parsed.all(AST_NODE_TYPES.VariableDeclarator)) {
      if (d.id.type !== AST_NODE_TYPES.Identifier || d.init?.type !== AST_NODE_TYPES.CallExpression) continue;
      out[d.id.name] = chatRecordRead(parsed.sourceCode, '', d.init);
    }
    const shown = parsed.all(AST_NODE_TYPES.ReturnStatement)[0]?.argument;
    if (shown?.type === AST_NODE_TYPES.CallExpression) out.show = chatRecordRead(parsed.sourceCode, '', shown);
    return out;
  };

  it('reads a store under a guild, channel or member id as that community\'s record, and discord.js lookups as none', () => {
    assert.deepEqual(reads(code), { a: true, b: true, c: true, d: false, e: false, f: false, g: false, show: true });
  });

  it('says nothing in a file that does not use discord.js', () => {
    assert.ok(Object.values(reads(code.replace(`from 'discord.js'`, `from './events'`))).every((r) => !r));
  });
});

describe('value carriers', () => {
  it('names the argument a wrapper, a snapshot or a lodash reshaping holds', () => {
    const parsed = parse(`import { Result } from 'oxide.ts';
import { snapshot } from 'valtio/vanilla';
import { chunk } from 'lodash';
import uniq from 'lodash/uniq';
import { wrap } from './wrap';
Result.safe(a()); snapshot(b); chunk(c, 10); uniq(d); wrap(e); Result.ok(f);`);
    const carried = parsed.all(AST_NODE_TYPES.CallExpression)
      .filter((c) => c.parent.type === AST_NODE_TYPES.ExpressionStatement)
      .map((c) => { const arg = carriedValue(parsed.sourceCode, c); return arg ? parsed.sourceCode.getText(arg) : null; });
    assert.deepEqual(carried, ['a()', 'b', 'c', 'd', null, null]);
  });
});

describe('membership filters', () => {
  it('bounds a filter by another collection the predicate asks, not by a set read off the item', () => {
    const parsed = parse(`xs.filter((x) => known.has(x.id));
xs.filter((x) => { return ids.includes(x); });
xs.filter((m) => m.roles.cache.has(id));
xs.filter((x) => !known.has(x.id));
xs.map((x) => known.has(x));`);
    const bounds = parsed.all(AST_NODE_TYPES.CallExpression)
      .filter((c) => c.parent.type === AST_NODE_TYPES.ExpressionStatement)
      .map((c) => { const k = membershipBound(parsed.sourceCode, c); return k ? parsed.sourceCode.getText(k) : null; });
    assert.deepEqual(bounds, ['known', 'ids', null, null, null]);
  });
});

describe('thread-pool work', () => {
  const mapperOf = (code: string): { sourceCode: Parameters<typeof isThreadPoolWork>[0]; fn: TSESTree.Node } => {
    const parsed = parse(code);
    const map = parsed.all(AST_NODE_TYPES.CallExpression).find((c) => c.callee.type === AST_NODE_TYPES.MemberExpression &&
      c.callee.property.type === AST_NODE_TYPES.Identifier && c.callee.property.name === 'map');
    assert.ok(map?.arguments[0]);
    return { sourceCode: parsed.sourceCode, fn: map.arguments[0] };
  };
  const queued = (code: string): boolean => {
    const { sourceCode, fn } = mapperOf(code);
    return isThreadPoolWork(sourceCode, fn, runningFunction(fn));
  };

  it('counts fs metadata calls and the walk recursing into itself', () => {
    assert.equal(queued(`import { rm } from 'node:fs/promises';
export async function prune(dir, names) { await Promise.all(names.map((n) => rm(dir + n))); }`), true);
    assert.equal(queued(`import { lstat } from 'fs/promises';
async function walkDir(dir, names) {
  await Promise.all(names.map(async (n) => { const s = await lstat(n); if (s.isDirectory()) await walkDir(n, []); return { n }; }));
}`), true);
  });

  it('leaves out reads, child processes and anything else awaited', () => {
    assert.equal(queued(`import { readFile } from 'node:fs/promises';
export async function load(names) { await Promise.all(names.map((n) => readFile(n))); }`), false);
    assert.equal(queued(`import { stat } from 'node:fs/promises';
import { upload } from './s3';
export async function push(names) { await Promise.all(names.map(async (n) => { await stat(n); await upload(n); })); }`), false);
    assert.equal(queued(`import { execa } from 'execa';
export async function run(names) { await Promise.all(names.map((n) => execa('pydeps', [n]))); }`), false);
  });
});

describe('unreadable helpers', () => {
  resetProject();
  const root = scratch('unreadable-helpers');
  write(path.join(root, 'package.json'), '{"name":"bot","dependencies":{"oxide.ts":"1.1.0"}}');
  write(path.join(root, 'present.ts'), 'export async function listKnown() { return [1, 2]; }\n');
  const app = write(path.join(root, 'app.ts'), [
    "import { Result } from 'oxide.ts';",
    "import { listBars } from './data/bars';",
    "import { getSdk } from '../generated/sdk';",
    "import { listKnown } from './present';",
    'const sdk = getSdk({});',
    'export async function run() {',
    '  await listBars();',
    '  await Result.safe(listBars());',
    '  await sdk.getPairs();',
    '  await listKnown();',
    '  await Result.ok(1);',
    '}',
    '',
  ].join('\n'));

  it('tells awaited calls of modules the lint cannot read from ones it can', () => {
    const sourceCode = moduleSourceCode(app);
    assert.ok(sourceCode);
    const awaited: boolean[] = [];
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      if (node.type === AST_NODE_TYPES.AwaitExpression) awaited.push(awaitsUnreadableHelper(sourceCode, node.argument));
    });
    assert.deepEqual(awaited, [true, true, true, false, false]);
  });
});

describe('page sizes a request asks for', () => {
  const sizes = (code: string): (string | null)[] => parse(code, 'file.js').all(AST_NODE_TYPES.CallExpression)
    .filter((c) => c.callee.type === AST_NODE_TYPES.Identifier && c.callee.name === 'fetch')
    .map((c) => { const size = requestPageSize(c); return size === null || size === 'fixed' ? size : size.type; });

  it('reads a page size from the URL or the query options, and nothing else', () => {
    assert.deepEqual(sizes(`
fetch('https://api.example.com/movies?limit=6');
fetch(\`https://api.example.com/users/me/history?extended=full&per_page=\${n}\`);
fetch(\`https://api.example.com/movies/trending?limit=\${limit}&extended=images\`);
fetch('/items', { params: { pageSize: 50 } });
fetch('/items', { searchParams: { limit: size } });
fetch('https://api.example.com/movies?unlimited=6');
fetch('https://api.example.com/movies?limit=all');
fetch(\`https://api.example.com/movies?sort=\${limit}\`);
fetch('/items', { body: { limit: 5 } });
fetch(url);`), ['fixed', 'Identifier', 'Identifier', 'fixed', 'Identifier', null, null, null, null, null]);
  });
});

describe('one page of an Octokit listing', () => {
  resetProject();
  const root = scratch('octokit-pages');
  const withClient = write(path.join(root, 'with', 'package.json'), '{"name":"a","dependencies":{"@octokit/rest":"18.0.0"}}');
  const without = write(path.join(root, 'without', 'package.json'), '{"name":"b","dependencies":{"node-fetch":"2.6.1"}}');
  const code = `
github.repos.listForUser({ username });
octokit.rest.issues.listForRepo({ owner, repo });
github.repos.get({ owner, repo });
github.paginate(github.repos.listForOrg, { org });
store.items.listAll();
github.listForUser({ username });`;
  const listings = (file: string): boolean[] => parse(code, 'file.js').all(AST_NODE_TYPES.CallExpression)
    .filter((c) => c.parent?.type === AST_NODE_TYPES.ExpressionStatement).map((c) => isOnePageListing(file, c));

  const allPages = (file: string): boolean[] => parse(code, 'file.js').all(AST_NODE_TYPES.CallExpression)
    .filter((c) => c.parent?.type === AST_NODE_TYPES.ExpressionStatement).map((c) => isAllPagesListing(file, c));

  it('knows an endpoint namespace\'s list method, in a package with an Octokit client only', () => {
    assert.deepEqual(listings(path.join(path.dirname(withClient), 'index.js')), [true, true, false, false, false, false]);
    assert.deepEqual(listings(path.join(path.dirname(without), 'index.js')), [false, false, false, false, false, false]);
  });

  it('knows paginate of a listing method for every page', () => {
    assert.deepEqual(allPages(path.join(path.dirname(withClient), 'index.js')), [false, false, false, true, false, false]);
    assert.deepEqual(allPages(path.join(path.dirname(without), 'index.js')), [false, false, false, false, false, false]);
  });
});

describe('GraphQL resolvers\' arguments', () => {
  const argsAt = (code: string): (number | null)[] => {
    const parsed = parse(code, 'file.ts');
    const found: (number | null)[] = [];
    walk(parsed.ast, parsed.sourceCode.visitorKeys, (node) => {
      if (isFunctionNode(node) && node.parent?.type === AST_NODE_TYPES.Property) found.push(resolverArgsIndex(parsed.sourceCode, node));
    });
    return found;
  };

  it('finds the arguments of field configurations and of resolver maps handed to a server', () => {
    assert.deepEqual(argsAt(`import { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import { ApolloServer } from 'apollo-server-express';
export const a: GraphQLFieldConfig<any, any> = { type: T, resolve(source, args) { return args; } };
export const B = new GraphQLObjectType({ name: 'B', fields: { b: { type: T, resolve: (s, args) => args } } });
export const C = new GraphQLObjectType({ name: 'C', fields: () => ({ c: { type: T, resolve: (s, args) => args } }) });
const resolvers = { Query: { d(parent, args) { return args; } } };
new ApolloServer({ typeDefs, resolvers });`), [1, 1, null, 1, 1]); // the `fields` thunk is no resolver
  });

  it('says nothing of look-alikes', () => {
    assert.deepEqual(argsAt(`import { GraphQLFieldConfig } from './types';
import { ApolloServer } from 'apollo-server-express';
export const a: GraphQLFieldConfig<any, any> = { type: T, resolve(source, args) { return args; } };
export const b = { type: T, resolve(source, args) { return args; } };
export const C = makeType({ name: 'C', fields: { c: { type: T, resolve: (s, args) => args } } });
export const resolvers = { Query: { d(parent, args) { return args; } } };
new ApolloServer({ typeDefs, resolvers: {}, other: resolvers });
const handlers = { Query: { e(parent, args) { return args; } } };
register({ resolvers: handlers });`), [null, null, null, null, null]);
  });
});

describe('a value that leads back to itself', () => {
  resetProject();
  const root = scratch('origin-cycles');
  write(path.join(root, 'package.json'), '{"name":"app","dependencies":{}}');
  const file = write(path.join(root, 'settings.js'), [
    "const { getSettings, getIssue, getRepo } = require('./db');",
    'module.exports = async (userId) => {',
    '  const result = await getSettings({ userId });',
    '  const { issues, repos } = result || {};',
    '  const issueList = await Promise.all(issues.map((id) => getIssue(id)));',
    '  const repoList = await Promise.all(repos.map((id) => getRepo(id)));',
    '  result.issues = issueList;',
    '  result.repos = repoList;',
    '  return result;',
    '};',
    '',
  ].join('\n'));

  it('answers each collection in full, whichever is asked first', () => {
    const sourceCode = moduleSourceCode(file);
    assert.ok(sourceCode);
    const mapped: string[] = [];
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression &&
        node.callee.property.type === AST_NODE_TYPES.Identifier && node.callee.property.name === 'map') {
        mapped.push(valueOrigin({ sourceCode, filename: file }, node.callee.object));
      }
    });
    assert.deepEqual(mapped, ['data', 'data']);
  });
});
