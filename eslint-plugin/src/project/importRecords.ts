import type { TSESTree } from '@typescript-eslint/typescript-estree';

/** One module specifier a file names, and how. */
export interface ImportRecord {
  specifier: string;
  /** `import`/`export … from` at the top level, `require('…')`, or `import('…')`. */
  kind: 'import' | 'export' | 'require' | 'dynamic';
  /** `import type`/`export type`: erased at run time, so it runs nothing. */
  typeOnly: boolean;
  /** The string literal naming the module. */
  source: TSESTree.StringLiteral;
}

/** The declarations at the top of a program. */
export function topLevelImports(program: TSESTree.Program): ImportRecord[] {
  const records: ImportRecord[] = [];
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      records.push({ specifier: statement.source.value, kind: 'import', typeOnly: statement.importKind === 'type', source: statement.source });
    } else if ((statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportAllDeclaration') && statement.source) {
      records.push({ specifier: statement.source.value, kind: 'export', typeOnly: statement.exportKind === 'type', source: statement.source });
    } else if (statement.type === 'TSImportEqualsDeclaration' && statement.moduleReference.type === 'TSExternalModuleReference') {
      const expression = statement.moduleReference.expression;
      records.push({ specifier: expression.value, kind: 'require', typeOnly: statement.importKind === 'type', source: expression });
    }
  }
  return records;
}

/** `require('x')` or `import('x')` with a literal name, found while walking a tree. */
export function callImport(node: TSESTree.Node): ImportRecord | null {
  if (node.type === 'ImportExpression') {
    const source = node.source;
    if (source.type === 'Literal' && typeof source.value === 'string') {
      return { specifier: source.value, kind: 'dynamic', typeOnly: false, source: source as TSESTree.StringLiteral };
    }
    return null;
  }
  if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return null;
  const [first] = node.arguments;
  if (node.arguments.length !== 1 || first?.type !== 'Literal' || typeof first.value !== 'string') return null;
  return { specifier: first.value, kind: 'require', typeOnly: false, source: first as TSESTree.StringLiteral };
}

/**
 * Every module a program names. The deep walk for `require`/`import()` runs only when the text
 * could hold one (`text` given), since most modules have only top-level imports.
 */
export function importRecords(program: TSESTree.Program, text?: string): ImportRecord[] {
  const records = topLevelImports(program);
  if (text !== undefined && !text.includes('require') && !text.includes('import(')) return records;
  walk(program, (node) => {
    const record = callImport(node);
    if (record) records.push(record);
  });
  return records;
}

function walk(root: TSESTree.Node, visit: (node: TSESTree.Node) => void): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    visit(node);
    for (const key of Object.keys(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range' || key === 'tokens' || key === 'comments') continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push(value[i] as TSESTree.Node);
      } else if (isNode(value)) stack.push(value);
    }
  }
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
