import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import type { ResolverFactory } from 'enhanced-resolve';
import { resolverFileSystem } from './fileSystem';
import { FreshCache } from './freshCache';

/**
 * Where an import goes, by enhanced-resolve: relative paths, tsconfig `paths` (with `extends`),
 * package `exports` and `imports`, extensions, index files and symlinks, the way Node and
 * TypeScript do it. Chosen over oxc-resolver because it is plain JavaScript: the language server
 * is one bundle inside one .vsix for every platform VS Code runs on, and a native resolver would
 * need a binary per platform or a second, JavaScript, resolver behind it. It was already installed
 * (eslint-plugin-n uses it) and it resolves synchronously, which rules need.
 */
export type Resolution =
  /** `local` is false for files inside `node_modules`; `packageName` is set for bare specifiers. */
  | { kind: 'file'; path: string; local: boolean; packageName: string | null }
  | { kind: 'builtin'; name: string }
  | { kind: 'unresolved'; packageName: string | null };

/** TypeScript sources first: a `.ts` next to its compiled `.js` is the one the author edits. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

type Resolver = ReturnType<typeof ResolverFactory.createResolver>;
let resolver: Resolver | null = null;
let withoutManifests: Resolver | null = null;

/** Built on the first question: a lint run whose rules never ask pays nothing. */
function getResolver(): Resolver {
  resolver ??= resolverFactory().createResolver(resolverOptions());
  return resolver;
}

/**
 * For a folder whose package.json does not parse (mid-edit in the editor): enhanced-resolve
 * refuses every request below it, though relative imports need no manifest.
 */
function getResolverWithoutManifests(): Resolver {
  withoutManifests ??= resolverFactory().createResolver({ ...resolverOptions(), descriptionFiles: [] });
  return withoutManifests;
}

/** enhanced-resolve itself is loaded on the first question too, not when the plugin loads. */
export function resolverFactory(): typeof ResolverFactory {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose
  return (require('enhanced-resolve') as typeof import('enhanced-resolve')).ResolverFactory;
}

function resolverOptions(): Parameters<typeof ResolverFactory.createResolver>[0] {
  return {
    fileSystem: resolverFileSystem,
    useSyncFileSystemCalls: true,
    extensions: EXTENSIONS,
    // ESM TypeScript writes `./db.js` for `db.ts`.
    extensionAlias: {
      '.js': ['.ts', '.tsx', '.js', '.jsx'],
      '.jsx': ['.tsx', '.jsx'],
      '.mjs': ['.mts', '.mjs'],
      '.cjs': ['.cts', '.cjs'],
    },
    // A package's own order of conditions decides between `import` and `require`.
    conditionNames: ['node', 'import', 'require', 'default'],
    mainFields: ['main'],
    mainFiles: ['index'],
    // The nearest tsconfig.json above the importing file (with `extends`), read through the
    // overlay. Not read: jsconfig.json, and `paths` that only a referenced config in the same
    // folder declares (a solution-style tsconfig.json pointing at tsconfig.app.json).
    tsconfig: true,
    symlinks: true,
  };
}

/** Keyed by directory and specifier. */
const answers = new FreshCache<Resolution>(10_000);

/** Where `specifier`, imported from `fromFile` (absolute path), goes. Never throws. */
export function resolveImport(fromFile: string, specifier: string): Resolution {
  if (isBuiltin(specifier)) return { kind: 'builtin', name: specifier.replace(/^node:/, '') };
  const packageName = bareName(specifier);
  if (!path.isAbsolute(fromFile)) return { kind: 'unresolved', packageName };
  const dir = path.dirname(fromFile);
  return answers.get(`${dir}\0${specifier}`, () => resolveNow(dir, specifier, packageName));
}

function resolveNow(dir: string, specifier: string, packageName: string | null): Resolution {
  let found: string | false = false;
  try {
    found = getResolver().resolveSync({}, dir, specifier);
  } catch (error) {
    // Not found: the import goes nowhere we know. A broken manifest: try again without manifests.
    if (packageName === null && error instanceof Error && error.message.includes('description file')) {
      found = resolveQuietly(getResolverWithoutManifests(), dir, specifier);
    }
  }
  if (found === false) return { kind: 'unresolved', packageName };
  const local = !found.split(path.sep).includes('node_modules');
  // A tsconfig alias such as `@/db` that lands in the project names no package.
  return { kind: 'file', path: found, local, packageName: local ? null : packageName };
}

function resolveQuietly(r: Resolver, dir: string, specifier: string): string | false {
  try {
    return r.resolveSync({}, dir, specifier);
  } catch {
    return false;
  }
}

/** `pg` for `pg/lib/pool`, `@scope/pkg` for `@scope/pkg/sub`; null for paths and `#imports`. */
export function bareName(specifier: string): string | null {
  if (specifier === '' || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#')) return null;
  if (path.isAbsolute(specifier) || /^[a-z][a-z\d+.-]*:/i.test(specifier)) return null;
  const parts = specifier.split('/');
  if (specifier.startsWith('@')) return parts[0] !== '@' && parts[1] ? `${parts[0]}/${parts[1]}` : null;
  return parts[0] ?? null;
}

/** Forgets cached answers (tests). */
export function resetResolver(): void {
  answers.clear();
}
