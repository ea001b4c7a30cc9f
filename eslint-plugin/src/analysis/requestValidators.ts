import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { declaredName, findVariable, skipTransparent, staticPropertyName } from './ast';
import { isTypeWrapper } from './asyncContext';
import type { ModuleRef } from './imports';
import { importedModules, resolveReference } from './imports';
import type { HandlerRegistration } from './handlers';

type Services = Readonly<TSESLint.SourceCode>;

/** express-validator, and the subpath its v5 chains were imported from. */
export const VALIDATOR_MODULES: readonly string[] = ['express-validator', 'express-validator/check'];

/** Exports that start a validation chain for one field of the request. */
const CHAIN_FACTORIES: ReadonlySet<string> = new Set(['check', 'body', 'cookie', 'header', 'param', 'query']);

/** Chain methods whose function argument express-validator calls with each request's value. */
const PER_REQUEST_METHODS: ReadonlySet<string> = new Set(['custom', 'customSanitizer', 'if']);

/** The same in `checkSchema({ field: { custom: { options: fn } } })`. */
const SCHEMA_KEYS: ReadonlySet<string> = new Set(['custom', 'customSanitizer', 'if']);

const MAX_CHAIN = 64;

/** Can any function in this file be an express-validator callback? */
export function mayRegisterValidators(sourceCode: Services): boolean {
  const modules = importedModules(sourceCode);
  return VALIDATOR_MODULES.some((m) => modules.has(m));
}

/**
 * How express-validator runs `fn`: a custom validator or sanitizer of a validation chain
 * (`body('password').custom((value, { req }) => …)`, `.customSanitizer(fn)`, an `.if(fn)`
 * condition) or of a `checkSchema` field. The chain is route middleware, so the function runs
 * once per request that reaches the route, like the handler after it; express-validator awaits
 * what it returns. Null for anything else, and for chains the file does not build itself from
 * the package's exports.
 */
export function validatorRegistration(sourceCode: Services, fn: FunctionNode): HandlerRegistration | null {
  if (!mayRegisterValidators(sourceCode)) return null;
  const at = validatorUse(sourceCode, fn);
  if (at) return { framework: 'express', role: 'validator', node: at };
  // `body('password').custom(checkPassword)` after `function checkPassword(value, { req }) {…}`.
  const id = declaredName(fn);
  const variable = id ? findVariable(sourceCode, id) : null;
  if (!variable || variable.defs.length !== 1) return null;
  for (const reference of variable.references) {
    if (!reference.isRead()) continue;
    const use = validatorUse(sourceCode, reference.identifier);
    if (use) return { framework: 'express', role: 'validator', node: use };
  }
  return null;
}

/** The chain call or `checkSchema` call that receives `value` as a per-request callback. */
function validatorUse(sourceCode: Services, value: TSESTree.Node): TSESTree.CallExpression | null {
  let arg: TSESTree.Node = value;
  while (arg.parent && isTypeWrapper(arg.parent)) arg = arg.parent;
  const parent = arg.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === arg) {
    const callee = skipTransparent(parent.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || !PER_REQUEST_METHODS.has(staticPropertyName(callee) ?? '')) return null;
    return isValidationChain(sourceCode, callee.object) ? parent : null;
  }
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === arg) return schemaUse(sourceCode, parent);
  return null;
}

/** `checkSchema({ password: { custom: { options: fn } } })`, the schema written at the call. */
function schemaUse(sourceCode: Services, options: TSESTree.Property): TSESTree.CallExpression | null {
  if (propertyKey(options) !== 'options') return null;
  const entry = options.parent.parent;
  if (entry?.type !== AST_NODE_TYPES.Property || !SCHEMA_KEYS.has(propertyKey(entry) ?? '')) return null;
  const field = entry.parent.parent;
  if (field?.type !== AST_NODE_TYPES.Property || field.value !== entry.parent) return null;
  const call = field.parent.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== field.parent) return null;
  return isValidatorExport(resolveReference(sourceCode, call.callee), 'checkSchema') ? call : null;
}

/**
 * Does `node` evaluate to a validation chain: a chain factory's call (`body('email')`), then
 * any of the chain's own methods, which each return the chain (`.notEmpty().withMessage(…)`)?
 */
function isValidationChain(sourceCode: Services, node: TSESTree.Node): boolean {
  let expr = skipTransparent(node);
  for (let steps = 0; steps < MAX_CHAIN; steps++) {
    if (expr.type !== AST_NODE_TYPES.CallExpression) return false;
    const ref = resolveReference(sourceCode, expr.callee);
    if (ref) return [...CHAIN_FACTORIES].some((name) => isValidatorExport(ref, name));
    const callee = skipTransparent(expr.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    expr = skipTransparent(callee.object);
  }
  return false;
}

function isValidatorExport(ref: ModuleRef | null, name: string): boolean {
  if (!ref || !VALIDATOR_MODULES.includes(ref.module)) return false;
  const path = ref.path.filter((p) => p !== 'default');
  return path.length === 1 && path[0] === name;
}

function propertyKey(property: TSESTree.Property): string | null {
  if (property.computed) return null;
  if (property.key.type === AST_NODE_TYPES.Identifier) return property.key.name;
  return property.key.type === AST_NODE_TYPES.Literal && typeof property.key.value === 'string' ? property.key.value : null;
}
