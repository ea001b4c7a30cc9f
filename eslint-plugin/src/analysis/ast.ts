import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';

export type FunctionNode =
  | TSESTree.FunctionDeclaration
  | TSESTree.FunctionExpression
  | TSESTree.ArrowFunctionExpression;

/** The name a function is declared under, `function f` or `const f = () => …`: a binding whose uses the scope manager lists. */
export function declaredName(fn: FunctionNode): TSESTree.Identifier | null {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier && parent.init === fn) return parent.id;
  return null;
}

export function isFunctionNode(node: TSESTree.Node | null | undefined): node is FunctionNode {
  return (
    node?.type === AST_NODE_TYPES.FunctionDeclaration ||
    node?.type === AST_NODE_TYPES.FunctionExpression ||
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** Strips wrappers that do not change the value: parentheses are already gone in ESTree; TS casts are not. */
export function skipTransparent(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSInstantiationExpression:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** `a.b`, `a['b']` and `a?.b` name their property statically; `a[b]` does not. */
export function staticPropertyName(node: TSESTree.MemberExpression): string | null {
  if (!node.computed) {
    return node.property.type === AST_NODE_TYPES.Identifier || node.property.type === AST_NODE_TYPES.PrivateIdentifier
      ? node.property.name
      : null;
  }
  if (node.property.type === AST_NODE_TYPES.Literal && typeof node.property.value === 'string') {
    return node.property.value;
  }
  if (
    node.property.type === AST_NODE_TYPES.TemplateLiteral &&
    node.property.expressions.length === 0 &&
    node.property.quasis.length === 1
  ) {
    return node.property.quasis[0]?.value.cooked ?? null;
  }
  return null;
}

/** The name a call is made by: `f()` → `f`, `a.b.f()` → `f`. */
export function calleeName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | null {
  const callee = skipTransparent(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return staticPropertyName(callee);
  return null;
}

/**
 * A return or variable annotation naming `Promise` or `PromiseLike`: TypeScript's `Promise<T>`, or
 * Flow's (`GenericTypeAnnotation`, from hermes-eslint) for a Flow file.
 */
export function annotatesPromise(annotation: TSESTree.TSTypeAnnotation | undefined): boolean {
  const type = annotation?.typeAnnotation as { type: string; typeName?: TSESTree.Node; id?: TSESTree.Node } | undefined;
  const name = type?.type === AST_NODE_TYPES.TSTypeReference ? type.typeName : type?.type === 'GenericTypeAnnotation' ? type.id : undefined;
  return name?.type === AST_NODE_TYPES.Identifier && (name.name === 'Promise' || name.name === 'PromiseLike');
}

/**
 * A class's or class member's decorators. typescript-eslint's parser always gives the array;
 * espree and hermes-eslint leave the field out, and the rules run under whatever parser the
 * user's config names.
 */
export function decoratorsOf(node: TSESTree.ClassDeclaration | TSESTree.ClassExpression | TSESTree.MethodDefinition): TSESTree.Decorator[] {
  return (node.decorators as TSESTree.Decorator[] | undefined) ?? [];
}

/** A class's `implements` list: absent, like decorators, from parsers that read no TypeScript. */
export function implementsOf(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): TSESTree.TSClassImplements[] {
  return (cls.implements as TSESTree.TSClassImplements[] | undefined) ?? [];
}

/** `null` or `undefined` (through casts and parentheses): no value. */
export function isNullOrUndefined(node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  return (expr.type === AST_NODE_TYPES.Literal && expr.value === null && !('regex' in expr) && !('bigint' in expr)) ||
    (expr.type === AST_NODE_TYPES.Identifier && expr.name === 'undefined');
}

/**
 * The values a variable is given after its declaration: the right side of each later `x = …`.
 * Null when some write is anything else (destructuring, `for (x of …)`, `??=`), whose value this
 * analysis cannot see.
 */
export function laterAssignments(variable: TSESLint.Scope.Variable): TSESTree.Expression[] | null {
  const values: TSESTree.Expression[] = [];
  for (const reference of variable.references) {
    if (!reference.isWrite() || reference.init) continue;
    const assignment = reference.identifier.parent;
    if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left !== reference.identifier) return null;
    values.push(assignment.right);
  }
  return values;
}

/** Finds the variable a name refers to at `node`, walking up the scope chain. */
export function findVariable(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Identifier,
): TSESLint.Scope.Variable | null {
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(node);
  while (scope) {
    const variable = scope.set.get(node.name);
    if (variable) return variable;
    scope = scope.upper;
  }
  return null;
}

/** The argument at `index` of every same-file call of `fn` by name; null when `fn` is also used as a value. */
export function sameFileCallArguments(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionNode, index: number): (TSESTree.Node | null)[] | null {
  if (index < 0) return null;
  const id = declaredName(fn);
  if (!id) return null;
  const variable = findVariable(sourceCode, id);
  if (!variable) return null;
  const args: (TSESTree.Node | null)[] = [];
  for (const reference of variable.references) {
    if (reference.init) continue;
    const call = reference.identifier.parent;
    if (call?.type === AST_NODE_TYPES.ExportSpecifier) continue;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return null;
    const arg = call.arguments[index];
    if (arg?.type === AST_NODE_TYPES.SpreadElement) return null;
    args.push(arg ?? null);
  }
  return args;
}

/**
 * The initializer of the variable `id` names, when that variable is one `const` declarator binding
 * exactly this name (`const x = …`, not `const { x } = …`, `let` or a parameter); null otherwise.
 */
export function constInit(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): TSESTree.Expression | null {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id !== def.name || def.parent.kind !== 'const') return null;
  return def.node.init ?? null;
}

/** The operands `a && b && c` needs all truthy; any other expression is its own single operand. */
export function conjuncts(node: TSESTree.Node): TSESTree.Node[] {
  if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator === '&&') return [...conjuncts(node.left), ...conjuncts(node.right)];
  return [node];
}

/** The values a function returns: its expression body, or the arguments of its own `return`s (not those of nested functions). */
export function returnedValues(fn: FunctionNode, visitorKeys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  if (fn.body === null || fn.body === undefined) return [];
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const body = fn.body;
  const out: TSESTree.Node[] = [];
  walk(body, visitorKeys, (node) => {
    if (node !== body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) out.push(node.argument);
    return true;
  });
  return out;
}

/** Calls `visit` on every node under `root` (including it), parents before children. */
export function walk(
  root: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => boolean | void,
): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    if (visit(node) === false) continue;
    const keys = visitorKeys[node.type] ?? [];
    for (let k = keys.length - 1; k >= 0; k--) {
      const child = (node as unknown as Record<string, unknown>)[keys[k] as string];
      if (Array.isArray(child)) {
        for (let i = child.length - 1; i >= 0; i--) {
          const item = child[i] as TSESTree.Node | null;
          if (item && typeof item.type === 'string') stack.push(item);
        }
      } else if (child && typeof (child as TSESTree.Node).type === 'string') {
        stack.push(child as TSESTree.Node);
      }
    }
  }
}

/** The innermost function that contains `node` (not counting `node` itself). */
export function enclosingFunction(node: TSESTree.Node): FunctionNode | null {
  let current = node.parent;
  while (current) {
    if (isFunctionNode(current)) return current;
    current = current.parent;
  }
  return null;
}

/** True when `inner` is `outer` or lies inside it. */
export function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** The property `name` of an object literal (`{ concurrency: 4 }`), static keys only. */
export function findObjectProperty(node: TSESTree.Node, name: string): TSESTree.Property | null {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.ObjectExpression) return null;
  for (const p of expr.properties) if (p.type === AST_NODE_TYPES.Property && propertyKeyIs(p, name)) return p;
  return null;
}

/** `name: …`, `'name': …`: a property whose static key is `name`. */
export function propertyKeyIs(property: TSESTree.Property, name: string): boolean {
  if (property.computed) return false;
  return (property.key.type === AST_NODE_TYPES.Identifier && property.key.name === name) ||
    (property.key.type === AST_NODE_TYPES.Literal && property.key.value === name);
}

/** The source text of `node` when it is short enough for a message (one line, at most 40 characters); null otherwise. */
export function shortSource(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | null {
  const text = sourceCode.getText(node);
  return text.length <= 40 && !text.includes('\n') ? text : null;
}

/**
 * Every name a binding pattern declares, into `into`: `x`, `{ a, b: { c }, ...d }`, `[e, , ...f]`,
 * `g = 1`, and each declarator of a `const …` / `let …` (a `for…of` left side).
 */
export function patternNames(pattern: TSESTree.Node | null | undefined, into = new Set<string>()): Set<string> {
  if (!pattern) return into;
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      into.add(pattern.name);
      break;
    case AST_NODE_TYPES.ObjectPattern:
      for (const p of pattern.properties) patternNames(p.type === AST_NODE_TYPES.Property ? p.value : p.argument, into);
      break;
    case AST_NODE_TYPES.ArrayPattern:
      for (const element of pattern.elements) patternNames(element, into);
      break;
    case AST_NODE_TYPES.AssignmentPattern:
      patternNames(pattern.left, into);
      break;
    case AST_NODE_TYPES.RestElement:
      patternNames(pattern.argument, into);
      break;
    case AST_NODE_TYPES.VariableDeclaration:
      for (const d of pattern.declarations) patternNames(d.id, into);
      break;
    default:
      break;
  }
  return into;
}

/**
 * The nodes of code that start where `pattern` (a global RegExp) matches the source text: a text
 * search is far cheaper than a tree walk or a token scan, and checking the node keeps out matches
 * in comments, strings and the middle of longer names.
 */
export function* nodesAtMatches(sourceCode: Readonly<TSESLint.SourceCode>, pattern: RegExp): Generator<TSESTree.Node> {
  for (const match of sourceCode.text.matchAll(pattern)) {
    const node = nodeAtIndex(sourceCode.ast, match.index, sourceCode.visitorKeys);
    if (node?.range[0] === match.index) yield node;
  }
}

/**
 * The node `SourceCode#getNodeByRangeIndex` answers (the innermost node containing `index`, taking
 * the first containing child at each level), found by one descent instead of its generic
 * traverser, which costs a visitor call per sibling on the way down.
 */
export function nodeAtIndex(root: TSESTree.Node, index: number, visitorKeys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node | null {
  if (!containsIndex(root, index)) return null;
  let node = root;
  descend: for (;;) {
    const record = node as unknown as Record<string, unknown>;
    for (const key of visitorKeys[node.type] ?? fallbackKeys(node)) {
      const child = record[key];
      if (Array.isArray(child)) {
        const item = containingItem(child, index);
        if (item) {
          node = item;
          continue descend;
        }
      } else if (isNodeLike(child) && containsIndex(child, index)) {
        node = child;
        continue descend;
      }
    }
    return node;
  }
}

/**
 * The item of a child list that contains `index`. A list's nodes are in source order and do not
 * overlap, so a long one (a module's statements, searched once per text match) is bisected; a
 * hole (`[a, , b]`) sends the search back to the plain scan.
 */
function containingItem(items: readonly unknown[], index: number): TSESTree.Node | null {
  let low = 0;
  let high = items.length;
  while (high - low > 8) {
    const middle = (low + high) >>> 1;
    const item = items[middle];
    if (!isNodeLike(item)) break;
    if (item.range[1] <= index) low = middle + 1;
    else if (item.range[0] > index) high = middle;
    else return item;
  }
  // Every item from `high` on starts after `index`.
  for (let i = low; i < high; i++) {
    const item = items[i];
    if (isNodeLike(item) && containsIndex(item, index)) return item;
  }
  return null;
}

function containsIndex(node: TSESTree.Node, index: number): boolean {
  return node.range[0] <= index && index < node.range[1];
}

function isNodeLike(value: unknown): value is TSESTree.Node {
  return value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string';
}

/** The keys ESLint's traverser guesses for a node type it has no visitor keys for. */
function fallbackKeys(node: TSESTree.Node): string[] {
  return Object.keys(node).filter((key) => key !== 'parent' && key !== 'leadingComments' && key !== 'trailingComments' && !key.startsWith('_'));
}
