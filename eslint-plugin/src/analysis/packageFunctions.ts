/**
 * Functions of well-known packages that return a promise, told by the import a call resolves to
 * (never by its name): HTTP requests (`axios.post(…)`, `got(…)`, node-fetch), file removal and
 * copying (`del`, `rimraf`, fs-extra without a callback), child processes (`execa`). A dropped
 * one runs unsupervised, and its failure (a refused connection, a permission error, a command
 * that exits non-zero) is an unhandled rejection.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { isFunctionNode, skipTransparent } from './ast';
import type { ModuleRef } from './imports';
import { importedModules, resolveReference } from './imports';

type Services = Readonly<TSESLint.SourceCode>;

const HTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];

/**
 * Per module, the export paths (joined with `.`; `''` is the module's own value) whose call
 * returns a promise. fs-extra's functions return one only when no callback is passed (universalify);
 * a callback argument is checked at the call for every entry alike.
 */
const PROMISE_FUNCTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  axios: new Set(['', ...HTTP_VERBS, 'postForm', 'putForm', 'patchForm']),
  got: new Set(['', ...HTTP_VERBS]),
  ky: new Set(['', ...HTTP_VERBS]),
  'node-fetch': new Set(['']),
  'cross-fetch': new Set(['', 'fetch']),
  'isomorphic-fetch': new Set(['']),
  undici: new Set(['fetch', 'request']),
  // del 6 exports the function, del 7 `deleteAsync`; rimraf 4 and later export `rimraf` (rimraf 3
  // takes a callback, which the call check below leaves alone).
  del: new Set(['', 'deleteAsync']),
  rimraf: new Set(['rimraf']),
  'fs-extra': new Set([
    'copy', 'move', 'remove', 'emptyDir', 'emptydir', 'ensureFile', 'createFile', 'ensureDir', 'mkdirs', 'mkdirp', 'ensureLink',
    'createLink', 'ensureSymlink', 'createSymlink', 'outputFile', 'outputJson', 'outputJSON', 'readJson', 'readJSON', 'writeJson',
    'writeJSON', 'pathExists', 'readFile', 'writeFile', 'appendFile', 'unlink', 'rename', 'mkdir', 'rm', 'rmdir', 'copyFile',
    'readdir', 'stat', 'lstat', 'access', 'chmod', 'chown', 'utimes', 'symlink', 'realpath',
  ]),
  execa: new Set(['', 'execa', 'execaCommand', 'execaNode', '$']),
};

const MODULES: readonly string[] = Object.keys(PROMISE_FUNCTIONS);

/** The package function `call` makes, when it is one of the above called without a callback; null otherwise. */
export function packagePromiseFunction(sourceCode: Services, call: TSESTree.CallExpression): ModuleRef | null {
  const imported = importedModules(sourceCode);
  if (!MODULES.some((m) => imported.has(m))) return null;
  if (call.arguments.some((a) => isFunctionNode(a))) return null;
  const callee = skipTransparent(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return null;
  const ref = resolveReference(sourceCode, callee);
  const paths = ref ? PROMISE_FUNCTIONS[ref.module] : undefined;
  if (!ref || !paths) return null;
  // `axios.default.post(…)`, `import axios from 'axios'`: the default export is the module's value.
  const names = ref.path[0] === 'default' ? ref.path.slice(1) : ref.path;
  return paths.has(names.join('.')) ? ref : null;
}
