import * as path from 'node:path';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from './nodeTypes';
import { pathKind, resolveImport } from '../project';
import { skipTransparent } from './ast';
import { isProjectSpecifier, sourceFileOf } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/**
 * `import('./log/logger.js')`, or `import(\`./plugins/${name}\`)` under a folder of the project:
 * a dynamic import of the project's own code. Its promise rejects only when that file is missing
 * or its top-level code throws, which the first run shows, not a load or a bad input later on;
 * `recommended` counts it as a promise that does not reject at run time. A package, a computed
 * specifier, a file or folder that is not there, or a file whose path is unknown: false.
 */
export function importsProjectFile(sourceCode: Services, node: TSESTree.Node): boolean {
  const expr = skipTransparent(node);
  if (expr.type !== AST_NODE_TYPES.ImportExpression) return false;
  const from = sourceFileOf(sourceCode);
  if (!from) return false;
  const source = expr.source;
  if (source.type === AST_NODE_TYPES.Literal) {
    if (typeof source.value !== 'string' || !isProjectSpecifier(sourceCode, source.value)) return false;
    const resolved = resolveImport(from, source.value);
    return resolved.kind === 'file' && resolved.local;
  }
  if (source.type !== AST_NODE_TYPES.TemplateLiteral || source.expressions.length === 0) return false;
  // The fixed part up to its last `/` names the folder every value of the template lands in.
  const head = source.quasis[0]?.value.cooked ?? '';
  const folder = head.slice(0, head.lastIndexOf('/') + 1);
  if (!/^\.\.?\//.test(folder)) return false;
  const dir = path.resolve(path.dirname(from), folder);
  return !dir.split(path.sep).includes('node_modules') && pathKind(dir) === 'directory';
}
