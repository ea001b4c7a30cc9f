import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import type { FunctionNode } from './ast';
import { constInit, findVariable, isFunctionNode, skipTransparent, staticPropertyName, walk } from './ast';
import { resolveCalleeFunction, resolveImportedFunction, runningFunction } from './callGraph';
import { isDevOnly } from './devOnly';
import { knownCallers } from './knownCallers';
import { CallerAnswers } from './callerAnswers';
import { sourceFileOf } from './localModules';
import { isStartupPhase } from './phase';
import { entryReach } from '../project';

type Services = Readonly<TSESLint.SourceCode>;

/** Statuses that turn a client away: not signed in (401), or not allowed to do this (403). */
const REFUSED: ReadonlySet<number> = new Set([401, 403]);
const FORBIDDEN: ReadonlySet<number> = new Set([403]);
/** The parts of a request the client writes itself: a test on them checks what was sent, not who sent it. */
const SUBMITTED_PARTS: ReadonlySet<string> = new Set(['body', 'query', 'params', 'headers', 'cookies', 'signedCookies']);
/** Request methods that read a header (`req.get('x-api-key')`). */
const HEADER_READS: ReadonlySet<string> = new Set(['get', 'header']);
/** Where a connection's handshake holds who the server already knows the client to be (express-session, passport). */
const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['session', 'user']);
/** Response methods whose first argument is the status they answer with. */
const STATUS_METHODS: ReadonlySet<string> = new Set(['status', 'sendStatus', 'code', 'writeHead', 'throw']);
const STATUS_FIELDS: ReadonlySet<string> = new Set(['status', 'statusCode']);
const LISTEN_METHODS: ReadonlySet<string> = new Set(['on', 'once', 'addListener']);
const CONNECTION_EVENTS: ReadonlySet<string> = new Set(['connection', 'connect']);
/** What a socket.io or ws connection carries of the client's own HTTP request: its session, cookies, headers. */
const HANDSHAKE_FIELDS: ReadonlySet<string> = new Set(['request', 'handshake', 'upgradeReq']);
/** Callers followed across functions at most this deep: a route calls a service that calls its helper. */
const MAX_CALLER_DEPTH = 3;

const gatedCallers = new CallerAnswers();

/**
 * Does `node`, running in `fn`, run only for a client the process already let in, or only on a
 * setup server? Blocking there stalls the few trusted clients who asked for it, not the traffic
 * the process serves, so recommended leaves it to strict. Said when, on the way to `node`:
 * - the handler has turned away everyone else: an earlier `if (…) { res.status(403)…; return }`
 *   on who the client is (not on what it sent: a login's answer to a wrong password is no gate),
 *   or `if (!session) return` after a guard that answers 401/403 itself (`validateSession(req, res)`),
 *   or a middleware registered before it on the same route that answers 401/403;
 * - a socket listener is registered only after a check of who its connection's session says
 *   the client is (`if (!user.is_admin) return;` on `socket.conn.request.session` before `socket.on(…)`);
 * - the handler closes its own server (`tempServer.close()`): a server put up to answer one
 *   request, like a first-run setup page that hands over to the real server once it is done;
 * - or every known call of `fn` is made in such a place, at startup or from one-shot code.
 */
export function isGatedRun(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  return gatedAt(sourceCode, fn, node, 0);
}

function gatedAt(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node, depth: number): boolean {
  if (refusedBefore(sourceCode, fn, node) || registeredBehindGate(sourceCode, fn) || closesOwnServer(sourceCode, fn)) return true;
  return calledOnlyWhenGated(sourceCode, fn, depth);
}

function calledOnlyWhenGated(sourceCode: Services, fn: FunctionNode, depth: number): boolean {
  if (depth >= MAX_CALLER_DEPTH) return false;
  return gatedCallers.answer(fn, depth, () => everyCallerGated(sourceCode, fn, depth));
}

function everyCallerGated(sourceCode: Services, fn: FunctionNode, depth: number): boolean {
  const sites = knownCallers(sourceCode, fn);
  let live = 0;
  let gated = false;
  if (sites) {
    gated = sites.every((site) => {
      const file = sourceFileOf(site.sourceCode);
      if (file !== null && entryReach(file).kind === 'one-shot') return true;
      if (isDevOnly(site.sourceCode, site.call)) return true;
      const caller = runningFunction(site.call);
      if (caller === fn) return true;
      // Module top level runs once, as the process starts.
      if (caller === null) return true;
      live += 1;
      return isStartupPhase(site.sourceCode, caller, site.call) || gatedAt(site.sourceCode, caller, site.call, depth + 1);
    });
  }
  // Only gated or startup callers, and at least one that serves at all: one-shot callers alone say nothing of gates.
  return gated && live > 0;
}

/**
 * An `if` before `node` in `fn` (in `node`'s block or an enclosing one) whose branch answers
 * 401/403 and leaves (`return`, `throw`), or `if (!x) return` on a value a guard gave back
 * after answering 401/403 itself.
 */
function refusedBefore(sourceCode: Services, fn: FunctionNode, node: TSESTree.Node): boolean {
  for (let child: TSESTree.Node = node, current = node.parent; current && child !== fn; child = current, current = current.parent) {
    if (current.type !== AST_NODE_TYPES.BlockStatement) continue;
    for (const statement of current.body) {
      if (statement === child) break;
      if (statement.type !== AST_NODE_TYPES.IfStatement || !leaves(statement.consequent)) continue;
      if (testsRefusingGuard(sourceCode, statement.test)) return true;
      // Inline, only a refusal of who the client already is: a login's own `401` for a wrong
      // password, or a `403` on the account the form names, is its answer to what was sent.
      if (refuses(sourceCode, statement.consequent, FORBIDDEN) && !readsSubmitted(sourceCode, statement.test, fn)) return true;
    }
    if (current.parent === fn) break;
  }
  return false;
}

/** The branch ends the handler: its last statement returns or throws. */
function leaves(branch: TSESTree.Statement): boolean {
  const last = branch.type === AST_NODE_TYPES.BlockStatement ? branch.body[branch.body.length - 1] : branch;
  return last?.type === AST_NODE_TYPES.ReturnStatement || last?.type === AST_NODE_TYPES.ThrowStatement;
}

/** Code that answers 401/403 (`res.status(403)`, `ctx.throw(401)`, `res.statusCode = 401`, `throw new HttpError(403)`), outside nested functions. */
function refuses(sourceCode: Services, root: TSESTree.Node, statuses: ReadonlySet<number> = REFUSED): boolean {
  let found = false;
  walk(root, sourceCode.visitorKeys, (node) => {
    if (found || (node !== root && isFunctionNode(node))) return false;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = skipTransparent(node.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression && STATUS_METHODS.has(staticPropertyName(callee) ?? '') && isRefusedStatus(sourceCode, node.arguments[0], statuses)) found = true;
    } else if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression) {
      if (STATUS_FIELDS.has(staticPropertyName(node.left) ?? '') && isRefusedStatus(sourceCode, node.right, statuses)) found = true;
    } else if (node.type === AST_NODE_TYPES.ThrowStatement && node.argument.type === AST_NODE_TYPES.NewExpression) {
      if (node.argument.arguments.some((arg) => isRefusedStatus(sourceCode, arg, statuses))) found = true;
    }
    return !found;
  });
  return found;
}

function isRefusedStatus(sourceCode: Services, arg: TSESTree.Node | undefined, statuses: ReadonlySet<number>): boolean {
  if (!arg) return false;
  let value = skipTransparent(arg);
  // `res.status(FORBIDDEN)` with `const FORBIDDEN = 403` in sight.
  if (value.type === AST_NODE_TYPES.Identifier) value = constInit(sourceCode, value) ?? value;
  return value.type === AST_NODE_TYPES.Literal && typeof value.value === 'number' && statuses.has(value.value);
}

/**
 * The test reads what the client sent (`req.body`, `req.query`, `req.headers`, `req.get(…)`),
 * itself or through the initializer of a variable it reads (`const user = await
 * findUser(req.body.email)`): a `403` for a missing API key lets any key through.
 */
function readsSubmitted(sourceCode: Services, test: TSESTree.Node, fn: FunctionNode): boolean {
  const request = fn.params[0]?.type === AST_NODE_TYPES.Identifier ? fn.params[0].name : null;
  const seen = new Set<TSESTree.Node>();
  const reads = (root: TSESTree.Node, hops: number): boolean => {
    let found = false;
    walk(root, sourceCode.visitorKeys, (node) => {
      if (found) return false;
      if (node.type === AST_NODE_TYPES.MemberExpression && SUBMITTED_PARTS.has(staticPropertyName(node) ?? '')) found = true;
      else if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression &&
        node.callee.object.type === AST_NODE_TYPES.Identifier && node.callee.object.name === request &&
        HEADER_READS.has(staticPropertyName(node.callee) ?? '')) {
        found = true;
      }
      else if (node.type === AST_NODE_TYPES.Identifier && hops > 0) {
        const def = findVariable(sourceCode, node)?.defs[0];
        const init = def?.type === 'Variable' ? def.node.init : null;
        if (init && !seen.has(init)) {
          seen.add(init);
          found = reads(init, hops - 1);
        }
      }
      return !found;
    });
    return found;
  };
  return reads(test, 2);
}

/** `if (!session) return` where `const session = validateSession(req, res)` and that guard answers 401/403 before it gives back nothing. */
function testsRefusingGuard(sourceCode: Services, test: TSESTree.Expression): boolean {
  const negated = skipTransparent(test);
  const tested = negated.type === AST_NODE_TYPES.UnaryExpression && negated.operator === '!' ? skipTransparent(negated.argument) : null;
  if (tested?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, tested);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return false;
  let init = skipTransparent(def.node.init);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = skipTransparent(init.argument);
  return init.type === AST_NODE_TYPES.CallExpression && calleeRefuses(sourceCode, init.callee);
}

/** The function a callee names (in this file or one of the project's modules) answers 401/403 somewhere in its body. */
function calleeRefuses(sourceCode: Services, callee: TSESTree.Node): boolean {
  const local = resolveCalleeFunction(sourceCode, callee);
  if (local) return refuses(sourceCode, local.body);
  const imported = resolveImportedFunction(sourceCode, callee);
  return imported !== null && refuses(imported.sourceCode, imported.fn.body);
}

/**
 * `app.post('/disable', requireSession, (req, res) => …)`: a middleware before `fn` on its route
 * that answers 401/403; or `socket.on('restart', fn)` registered after the connection listener
 * returned early on a check of the client's handshake.
 */
function registeredBehindGate(sourceCode: Services, fn: FunctionNode): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  const before = call.arguments.slice(0, call.arguments.indexOf(fn as TSESTree.CallExpressionArgument));
  if (before.some((arg) => isFunctionNode(arg) ? refuses(sourceCode, arg.body) : arg.type !== AST_NODE_TYPES.Literal && calleeRefuses(sourceCode, arg))) return true;
  return afterHandshakeCheck(sourceCode, call);
}

/** `registration` is `socket.on(…)` in `io.on('connection', (socket) => { …; if (!allowed) return; … })`, after that early return. */
function afterHandshakeCheck(sourceCode: Services, registration: TSESTree.CallExpression): boolean {
  const callee = skipTransparent(registration.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !LISTEN_METHODS.has(staticPropertyName(callee) ?? '')) return false;
  const receiver = skipTransparent(callee.object);
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const listener = connectionListenerOf(sourceCode, receiver);
  if (!listener || listener.body.type !== AST_NODE_TYPES.BlockStatement) return false;
  const socket = listener.params[0] as TSESTree.Identifier;
  const statement = listener.body.body.find((s) => s.range[0] <= registration.range[0] && registration.range[1] <= s.range[1]);
  if (!statement) return false;
  return listener.body.body.some((s) => s.range[1] <= statement.range[0] && s.type === AST_NODE_TYPES.IfStatement &&
    leaves(s.consequent) && readsHandshake(sourceCode, s.test, socket));
}

/** The `connection` listener whose first parameter `socket` is. */
function connectionListenerOf(sourceCode: Services, socket: TSESTree.Identifier): FunctionNode | null {
  const variable = findVariable(sourceCode, socket);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Parameter' || !isFunctionNode(def.node) || def.node.params[0] !== def.name) return null;
  const listener = def.node;
  const call = listener.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== listener) return null;
  const callee = skipTransparent(call.callee);
  const event = call.arguments[0];
  return callee.type === AST_NODE_TYPES.MemberExpression && LISTEN_METHODS.has(staticPropertyName(callee) ?? '') &&
    event?.type === AST_NODE_TYPES.Literal && typeof event.value === 'string' && CONNECTION_EVENTS.has(event.value) ? listener : null;
}

/**
 * The test reads who the server knows the client to be, from its handshake's session or user
 * (`socket.request.session.user`, or a `const` destructured from it): not a token the client
 * merely sent (`socket.handshake.auth.token`), which anyone can fill in.
 */
function readsHandshake(sourceCode: Services, test: TSESTree.Node, socket: TSESTree.Identifier): boolean {
  let reads = false;
  walk(test, sourceCode.visitorKeys, (node) => {
    if (reads) return false;
    if (node.type === AST_NODE_TYPES.MemberExpression && handshakeIdentity(node, socket, [])) reads = true;
    else if (node.type === AST_NODE_TYPES.Identifier && node !== socket) {
      const variable = findVariable(sourceCode, node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      const init = def?.type === 'Variable' && def.node.init ? skipTransparent(def.node.init) : null;
      if (def?.type === 'Variable' && init?.type === AST_NODE_TYPES.MemberExpression && handshakeIdentity(init, socket, patternKeys(def.name))) reads = true;
    }
    return !reads;
  });
  return reads;
}

/** `socket.conn.request.session`, `socket.request.user…`: a member chain on `socket` through its handshake to an identity (or into one through `keys`). */
function handshakeIdentity(member: TSESTree.MemberExpression, socket: TSESTree.Identifier, keys: readonly string[]): boolean {
  let sawHandshake = false;
  let sawIdentity = keys.some((key) => IDENTITY_FIELDS.has(key));
  let current: TSESTree.Node = member;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = staticPropertyName(current) ?? '';
    if (HANDSHAKE_FIELDS.has(name)) sawHandshake = true;
    else if (!sawHandshake && IDENTITY_FIELDS.has(name)) sawIdentity = true;
    current = skipTransparent(current.object);
  }
  return sawHandshake && sawIdentity && current.type === AST_NODE_TYPES.Identifier && current.name === socket.name;
}

/** The keys a destructured name sits under: `isAdmin` in `{ session: { user: { is_admin: isAdmin } } }` is under session, user, is_admin. */
function patternKeys(id: TSESTree.Node): string[] {
  const keys: string[] = [];
  for (let current: TSESTree.Node | undefined = id; current && current.type !== AST_NODE_TYPES.VariableDeclarator; current = current.parent) {
    if (current.type === AST_NODE_TYPES.Property && !current.computed && current.key.type === AST_NODE_TYPES.Identifier) keys.unshift(current.key.name);
  }
  return keys;
}

/**
 * The handler calls `.close()` on the server its registering function put up (`tempServer =
 * server.listen(…)`): the server is there to take one answer, and stops once it has it.
 */
function closesOwnServer(sourceCode: Services, fn: FunctionNode): boolean {
  const registration = fn.parent;
  if (registration?.type !== AST_NODE_TYPES.CallExpression || !registration.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  let closes = false;
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (closes) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = skipTransparent(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || staticPropertyName(callee) !== 'close') return true;
    const server = skipTransparent(callee.object);
    if (server.type === AST_NODE_TYPES.Identifier && holdsListeningServer(sourceCode, server)) closes = true;
    return !closes;
  });
  return closes;
}

/** Some write of the variable is the result of a `.listen(…)` call (through `a = b = x.listen(…)`). */
function holdsListeningServer(sourceCode: Services, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  if (!variable) return false;
  return variable.references.some((reference) => {
    let value: TSESTree.Node | null = reference.writeExpr ?? null;
    while (value?.type === AST_NODE_TYPES.AssignmentExpression) value = value.right;
    if (value?.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = skipTransparent(value.callee);
    return callee.type === AST_NODE_TYPES.MemberExpression && staticPropertyName(callee) === 'listen';
  });
}
