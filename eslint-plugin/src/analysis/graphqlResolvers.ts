import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { findVariable, propertyKeyIs, skipTransparent } from './ast';
import { annotatedRef } from './construction';
import type { ModuleRef } from './imports';
import { refMatches, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

/** graphql-js types of a field's configuration, whose `resolve(source, args, context, info)` gets the query's arguments second. */
const FIELD_CONFIG_TYPES: readonly string[] = ['GraphQLFieldConfig', 'GraphQLFieldConfigMap'];
/** graphql-js constructors whose `fields` (an object, or a function returning one) hold field configurations. */
const OBJECT_TYPES: readonly string[] = ['GraphQLObjectType', 'GraphQLInterfaceType'];

/**
 * Servers and schema builders handed a resolver map (`{ Query: { user(parent, args) {…} } }`) as
 * their `resolvers` option: each resolver gets the query's arguments second.
 */
const RESOLVER_MAP_TAKERS: readonly { module: string; path: readonly string[] }[] = [
  { module: 'apollo-server', path: ['ApolloServer'] }, { module: 'apollo-server-express', path: ['ApolloServer'] },
  { module: 'apollo-server-koa', path: ['ApolloServer'] }, { module: 'apollo-server-fastify', path: ['ApolloServer'] },
  { module: 'apollo-server-lambda', path: ['ApolloServer'] }, { module: '@apollo/server', path: ['ApolloServer'] },
  { module: '@graphql-tools/schema', path: ['makeExecutableSchema'] }, { module: 'graphql-tools', path: ['makeExecutableSchema'] },
  { module: 'graphql-yoga', path: ['createSchema'] }, { module: '@graphql-yoga/node', path: ['createSchema'] },
  { module: 'graphql-yoga', path: ['GraphQLServer'] },
];

/**
 * Which parameter of `fn` holds the arguments a GraphQL request sent to the field it resolves, or
 * null when `fn` is no resolver that is in sight: the `resolve` of a graphql-js field configuration
 * (declared as `GraphQLFieldConfig`, or in the `fields` of a `new GraphQLObjectType(…)`), or a
 * resolver of a map handed to Apollo Server, `makeExecutableSchema` or graphql-yoga's
 * `createSchema`. Those arguments are the client's input: a list among them is as long as it sent.
 */
export function resolverArgsIndex(sourceCode: Services, fn: FunctionNode): number | null {
  const property = fn.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== fn) return null;
  const owner = property.parent;
  if (owner.type !== AST_NODE_TYPES.ObjectExpression) return null;
  if (propertyKeyIs(property, 'resolve') && isFieldConfig(sourceCode, owner)) return 1;
  // `{ Mutation: { createUsers(parent, args) {…} } }`: a resolver two levels into a map.
  const typeEntry = owner.parent;
  if (typeEntry?.type === AST_NODE_TYPES.Property && typeEntry.value === owner && typeEntry.parent.type === AST_NODE_TYPES.ObjectExpression &&
    isHandedResolverMap(sourceCode, typeEntry.parent)) return 1;
  return null;
}

/** A graphql-js field configuration: declared with its type, or a field of an object type being built. */
function isFieldConfig(sourceCode: Services, config: TSESTree.ObjectExpression): boolean {
  const parent = config.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === config) {
    const annotated = annotatedRef(sourceCode, parent.id);
    return annotated !== null && isGraphql(annotated.ref, FIELD_CONFIG_TYPES);
  }
  // `fields: { user: { type, resolve } }` or `fields: () => ({ … })` of `new GraphQLObjectType({ … })`.
  const field = parent;
  if (field?.type !== AST_NODE_TYPES.Property || field.value !== config || field.parent.type !== AST_NODE_TYPES.ObjectExpression) return false;
  let fields: TSESTree.Node = field.parent;
  const thunk = fields.parent;
  if (thunk?.type === AST_NODE_TYPES.ArrowFunctionExpression && thunk.body === fields) fields = thunk;
  const entry = fields.parent;
  if (entry?.type !== AST_NODE_TYPES.Property || entry.value !== fields || !propertyKeyIs(entry, 'fields')) return false;
  const construction = entry.parent.parent;
  return construction?.type === AST_NODE_TYPES.NewExpression && construction.arguments[0] === entry.parent &&
    isGraphql(resolveReference(sourceCode, construction.callee), OBJECT_TYPES);
}

function isGraphql(ref: ModuleRef | null, exports: readonly string[]): boolean {
  return ref !== null && exports.some((e) => refMatches(ref, 'graphql', e));
}

/** The map is the `resolvers` option of a server or schema builder, inline or through a `const` of this file. */
function isHandedResolverMap(sourceCode: Services, map: TSESTree.ObjectExpression): boolean {
  const declarator = map.parent;
  if (declarator?.type === AST_NODE_TYPES.Property && declarator.value === map) return handedAsResolvers(sourceCode, declarator);
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== map || declarator.id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, declarator.id);
  return variable?.references.some((r) => {
    const use = r.identifier.parent;
    return use?.type === AST_NODE_TYPES.Property && use.value === r.identifier && handedAsResolvers(sourceCode, use);
  }) ?? false;
}

function handedAsResolvers(sourceCode: Services, property: TSESTree.Property): boolean {
  if (!propertyKeyIs(property, 'resolvers') || property.parent.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const call = property.parent.parent;
  if ((call?.type !== AST_NODE_TYPES.NewExpression && call?.type !== AST_NODE_TYPES.CallExpression) || call.arguments[0] !== property.parent) return false;
  const ref = resolveReference(sourceCode, skipTransparent(call.callee));
  return ref !== null && RESOLVER_MAP_TAKERS.some((t) => refMatches(ref, t.module, ...t.path));
}
