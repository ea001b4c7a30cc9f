import { AST_NODE_TYPES as NodeTypes } from '@typescript-eslint/utils';

/**
 * `AST_NODE_TYPES`, the enum itself, read once. `@typescript-eslint/utils` re-exports it through
 * two getters (utils, then types), and compiled code reads `utils.AST_NODE_TYPES.X` at every
 * comparison: the rules make thousands per file, and the getters cost about 3 % of a lint.
 * Import it from here, never through `analysis/index.ts`, whose re-exports are getters too.
 */
export import AST_NODE_TYPES = NodeTypes;
