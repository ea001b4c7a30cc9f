import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import type { ResolverFactory } from 'enhanced-resolve';
import { pathKind, realPathOnDisk, resolverFileSystem } from './fileSystem';
import { FreshCache } from './freshCache';
import { nearestPackage } from './packages';

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
/** ESM TypeScript writes `./db.js` for `db.ts`. */
const EXTENSION_ALIAS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

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
    extensionAlias: EXTENSION_ALIAS as Record<string, string[]>,
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
  if (PLAIN_RELATIVE.test(specifier)) {
    // Its answer rests on the path it names alone: `../../db` from every feature folder is one question.
    const fast = relativeAnswers.get(joinedPath(dir, specifier), () => relativeResolution(dir, specifier));
    if (fast) return fast;
  }
  return answers.get(`${dir}\0${specifier}`, () =>
    (packageName !== null ? aliasedResolution(dir, specifier) : null) ?? resolvedByResolver(dir, specifier, packageName));
}

/** Folders a build writes to; a manifest's path into one names the output of `src/`. */
const BUILD_DIRS: ReadonlySet<string> = new Set(['dist', 'build', 'lib', 'out']);

/**
 * `@models/User` where the nearest package.json depends on module-alias and maps `@models` in
 * `_moduleAliases` (module-alias rewrites `require` at run time; the longest matching alias wins).
 * An alias into build output (`dist/models`) that is not there, as in a checkout that was never
 * built, names the TypeScript source under `src/` that compiles to it. Null when no alias applies.
 */
function aliasedResolution(dir: string, specifier: string): Resolution | null {
  const facts = nearestPackage(path.join(dir, 'package.json'));
  if (facts.manifest === null || !facts.ranges.has('module-alias')) return null;
  let best: string | null = null;
  for (const alias of Object.keys(facts.moduleAliases)) {
    if ((specifier === alias || specifier.startsWith(`${alias}/`)) && alias.length > (best?.length ?? 0)) best = alias;
  }
  if (best === null) return null;
  const root = path.dirname(facts.manifest);
  const target = path.join(root, facts.moduleAliases[best] ?? '', specifier.slice(best.length));
  const found = resolvedByResolver(dir, target, null);
  if (found.kind === 'file') return found;
  const [first, ...rest] = path.relative(root, target).split(path.sep);
  if (first === undefined || !BUILD_DIRS.has(first) || rest.length === 0) return found;
  return resolvedByResolver(dir, path.join(root, 'src', ...rest), null);
}

/**
 * `path.join(dir, specifier)`, remembered: each file asks where its few imports go many times
 * over, and normalising the path cost more than the cached answer's lookup. Pure, so never stale.
 */
function joinedPath(dir: string, specifier: string): string {
  const at = `${dir}\0${specifier}`;
  let joined = joins.get(at);
  if (joined === undefined) {
    if (joins.size >= 10_000) joins.clear();
    joined = path.join(dir, specifier);
    joins.set(at, joined);
  }
  return joined;
}

const joins = new Map<string, string>();

/** Keyed by the absolute path a plain relative specifier names; null where the resolver must answer. */
const relativeAnswers = new FreshCache<Resolution | null>(10_000);

/** A relative specifier enhanced-resolve would not take differently (no `?`, `#`, `\`, trailing `/`). */
const PLAIN_RELATIVE = /^\.\.?\/(?!.*[?#\\\0]).*[^/]$/s;

/**
 * `./db`, `../lib/pool.js`: the candidates enhanced-resolve would try, in its order, probed over
 * the layer's cached stats, without a resolver run (which costs more than a millisecond, once per
 * importing folder). The file as written, then with each extension; a `.js`-style specifier tries
 * its aliases as written; a folder its `index` files. Anything else it leaves to the resolver
 * (null): a folder with a package.json (its `main`), an aliased specifier none of whose aliases
 * exists, a file only the editor has. One difference, on purpose: tsconfig `paths` never apply to
 * a relative specifier here, as in TypeScript and Node (enhanced-resolve also tries a `*` pattern
 * on `./db`).
 */
export function relativeResolution(dir: string, specifier: string): Resolution | null {
  if (!PLAIN_RELATIVE.test(specifier)) return null;
  const target = path.join(dir, specifier);
  const extension = path.extname(target);
  const aliases = EXTENSION_ALIAS[extension];
  if (aliases) {
    const base = target.slice(0, -extension.length);
    for (const alias of aliases) if (pathKind(base + alias) === 'file') return foundFile(base + alias);
    return null;
  }
  const kind = pathKind(target);
  if (kind === 'file') return foundFile(target);
  for (const ext of EXTENSIONS) if (pathKind(target + ext) === 'file') return foundFile(target + ext);
  if (kind !== 'directory') return { kind: 'unresolved', packageName: null };
  if (pathKind(path.join(target, 'package.json')) === 'file') return null;
  const index = path.join(target, 'index');
  if (pathKind(index) === 'file') return foundFile(index);
  for (const ext of EXTENSIONS) if (pathKind(index + ext) === 'file') return foundFile(index + ext);
  return { kind: 'unresolved', packageName: null };
}

function foundFile(file: string): Resolution | null {
  const real = realPathOnDisk(file);
  if (real === null) return null;
  return { kind: 'file', path: real, local: !real.split(path.sep).includes('node_modules'), packageName: null };
}

/** Asked of enhanced-resolve itself (tests compare it with the fast path). */
export function resolvedByResolver(dir: string, specifier: string, packageName: string | null = bareName(specifier)): Resolution {
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
  relativeAnswers.clear();
}
