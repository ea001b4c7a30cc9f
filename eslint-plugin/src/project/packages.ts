import * as path from 'node:path';
import type { ResolverFactory } from 'enhanced-resolve';
import type * as Semver from 'semver';
import { isFile, listDirectory, pathKind, readText, realPathOnDisk, resolverFileSystem } from './fileSystem';
import { FreshCache } from './freshCache';
import { Lru } from './lru';
import { resolverFactory } from './resolve';

/** What the nearest `package.json` says about the code below it. */
export interface PackageFacts {
  /** Absolute path of the manifest, or null when none was found (or the file has no real path). */
  manifest: string | null;
  name: string | null;
  /** How Node loads `.js` files here; `commonjs` when the field is absent, as in Node. */
  type: 'module' | 'commonjs';
  /** Command name → script path; a string `bin` is named after the package, as npm does. */
  bin: Readonly<Record<string, string>>;
  scripts: Readonly<Record<string, string>>;
  /** Declared range by package name, from every dependency field (first field wins). */
  ranges: ReadonlyMap<string, string>;
  /** module-alias's `_moduleAliases`: alias → path relative to the manifest's folder. */
  moduleAliases: Readonly<Record<string, string>>;
}

/** The nearest `package.json` above a file and the packages it declares. */
export interface PackageDependencies {
  manifest: string | null;
  /** Names from dependencies, devDependencies, peerDependencies and optionalDependencies. */
  names: ReadonlySet<string>;
}

/** Which major of a dependency the file runs against, and how that is known. */
export interface DependencyVersion {
  /**
   * `installed`: `node_modules/<name>/package.json` as resolved from the file; `declared`: the
   * lowest major the declared range allows; `unknown`: neither (a declared `*` or git URL keeps its
   * range in `version`).
   */
  source: 'installed' | 'declared' | 'unknown';
  major: number | null;
  /** The installed version or the declared range. */
  version: string | null;
  /** The manifest read: the installed package's, or the declaring one. */
  manifest: string | null;
}

const NONE: PackageFacts = { manifest: null, name: null, type: 'commonjs', bin: {}, scripts: {}, ranges: new Map(), moduleAliases: {} };
const UNKNOWN: DependencyVersion = { source: 'unknown', major: null, version: null, manifest: null };
const FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Manifest path → its text and what it says; re-read when the text (saved or unsaved) changes. */
const parsed = new Map<string, { text: string; facts: PackageFacts }>();
const MAX_MANIFESTS = 2000;

/**
 * The facts of the `package.json` nearest to `filename`, walking up directories. Files without a
 * real path (`<input>`, `<text>`, names relative to nothing) get an empty answer, and so does a
 * manifest that cannot be read or parsed: callers then simply know nothing.
 */
export function nearestPackage(filename: string): PackageFacts {
  if (!path.isAbsolute(filename)) return NONE;
  const dir = path.dirname(filename);
  return nearestByDir.get(dir, () => {
    const manifest = findManifest(dir);
    return manifest === null ? NONE : (readManifest(manifest) ?? { ...NONE, manifest });
  });
}

/** Every file of a directory asks the same question. */
const nearestByDir = new FreshCache<PackageFacts>(5000);
const installedByDir = new FreshCache<DependencyVersion | null>(5000);
const versionByDir = new FreshCache<DependencyVersion>(5000);

/** The dependencies declared by the `package.json` nearest to `filename`. */
export function nearestDependencies(filename: string): PackageDependencies {
  const facts = nearestPackage(filename);
  let deps = dependencyNames.get(facts);
  if (!deps) dependencyNames.set(facts, (deps = { manifest: facts.manifest, names: new Set(facts.ranges.keys()) }));
  return deps;
}

/** One answer per read of a manifest, however many files below it ask. */
const dependencyNames = new WeakMap<PackageFacts, PackageDependencies>();

/** True when `name` is declared in the nearest manifest above `filename`. */
export function declaresDependency(filename: string, name: string): boolean {
  return nearestPackage(filename).ranges.has(name);
}

/**
 * The major version of package `name` that code in `filename` runs against: the installed one
 * when `node_modules` has it, else the lowest major allowed by the range in the nearest manifest
 * that declares it (a workspace package may leave its dependencies to the root), else unknown.
 */
export function dependencyVersion(filename: string, name: string): DependencyVersion {
  if (!path.isAbsolute(filename)) return UNKNOWN;
  // Every handler of every route file asks, and a declared answer walks up and re-reads manifests.
  return versionByDir.get(`${path.dirname(filename)}\0${name}`, () => computeDependencyVersion(filename, name));
}

function computeDependencyVersion(filename: string, name: string): DependencyVersion {
  const installed = installedByDir.get(`${path.dirname(filename)}\0${name}`, () => installedVersion(filename, name));
  if (installed) return installed;
  let dir = path.dirname(filename);
  for (;;) {
    const manifest = findManifest(dir);
    if (manifest === null) return UNKNOWN;
    const range = readManifest(manifest)?.ranges.get(name);
    if (range !== undefined) {
      const major = lowestMajor(range);
      return { source: major === null ? 'unknown' : 'declared', major, version: range, manifest };
    }
    const parent = path.dirname(path.dirname(manifest));
    if (parent === path.dirname(manifest)) return UNKNOWN;
    dir = parent;
  }
}

/**
 * The lowest major a range allows, or null when it allows every version (`*`, `latest`) or is
 * not a semver range (a git URL, `file:`). `npm:other@^2` aliases and `workspace:^2` count by
 * their range.
 */
export function lowestMajor(range: string): number | null {
  // Every file asks of the same few ranges, and semver parses a range anew each time.
  const known = majors.get(range);
  if (known !== undefined) return known;
  const major = computeLowestMajor(range);
  majors.set(range, major);
  return major;
}

/** Range → its lowest major: a pure answer, bounded because ranges come from files. */
const majors = new Lru<string, number | null>(1000);

function computeLowestMajor(range: string): number | null {
  const semver = loadSemver();
  let r = range.trim();
  const alias = /^npm:(?:@[^/@]+\/)?[^@]+@(.*)$/.exec(r);
  if (alias) r = alias[1] ?? '';
  if (r.startsWith('workspace:')) r = r.slice('workspace:'.length);
  const valid = semver.validRange(r, { loose: true });
  if (valid === null) return null;
  const lowest = semver.minVersion(valid, { loose: true });
  if (lowest === null) return null;
  // `*` and `>=0` say nothing about the major the code expects.
  if (lowest.major === 0 && semver.satisfies('999999.0.0', valid, { loose: true })) return null;
  return lowest.major;
}

let packageJsonResolver: ReturnType<typeof ResolverFactory.createResolver> | null = null;

/** Node's lookup of `<name>/package.json` through `node_modules`, ignoring `exports` (which may hide it). */
function installedVersion(filename: string, name: string): DependencyVersion | null {
  const found = installedManifest(path.dirname(filename), name) ?? manifestByResolver(path.dirname(filename), name);
  if (found === false) return null;
  const json = parseJson(readText(found));
  if (!isRecord(json) || json.name !== name || typeof json.version !== 'string') return null;
  const version = loadSemver().parse(json.version, { loose: true });
  return version ? { source: 'installed', major: version.major, version: json.version, manifest: found } : null;
}

/**
 * `node_modules/<name>/package.json` in `dir` or the nearest folder above that has one, probed
 * over the cached stats as the resolver walks them; false when no folder has it, null (ask the
 * resolver) when a folder has the package without a manifest file, or only the editor has it.
 */
export function installedManifest(dir: string, name: string): string | false | null {
  if (name.includes('\\') || name.includes('..') || name.startsWith('/')) return null;
  for (let at = dir; ; ) {
    const modules = path.join(at, 'node_modules');
    if (pathKind(modules) === 'directory') {
      const manifest = path.join(modules, name, 'package.json');
      if (pathKind(manifest) === 'file') return realPathOnDisk(manifest);
      if (pathKind(path.join(modules, name)) !== 'missing') return null;
    }
    const parent = path.dirname(at);
    if (parent === at) return false;
    at = parent;
  }
}

/** Asked of enhanced-resolve (tests compare it with `installedManifest`). */
export function manifestByResolver(dir: string, name: string): string | false {
  packageJsonResolver ??= resolverFactory().createResolver({
    fileSystem: resolverFileSystem,
    useSyncFileSystemCalls: true,
    exportsFields: [],
    extensions: ['.json'],
    symlinks: true,
  });
  try {
    return packageJsonResolver.resolveSync({}, dir, `${name}/package.json`);
  } catch {
    return false;
  }
}

let semverModule: typeof Semver | null = null;

/** Loaded on the first version question. */
function loadSemver(): typeof Semver {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see `resolverFactory`
  semverModule ??= require('semver') as typeof Semver;
  return semverModule;
}

function findManifest(start: string): string | null {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (isFile(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readManifest(manifest: string): PackageFacts | null {
  const text = readText(manifest);
  if (text === null) return null;
  const hit = parsed.get(manifest);
  if (hit && hit.text === text) return hit.facts;
  const facts = factsOf(manifest, parseJson(text));
  if (parsed.size >= MAX_MANIFESTS) parsed.clear();
  parsed.set(manifest, { text, facts });
  return facts;
}

function factsOf(manifest: string, json: unknown): PackageFacts {
  if (!isRecord(json)) return { ...NONE, manifest };
  const name = typeof json.name === 'string' ? json.name : null;
  const ranges = new Map<string, string>();
  for (const field of FIELDS) {
    const block = json[field];
    if (!isRecord(block)) continue;
    for (const [dep, range] of Object.entries(block)) if (!ranges.has(dep)) ranges.set(dep, typeof range === 'string' ? range : '');
  }
  return {
    manifest, name, type: json.type === 'module' ? 'module' : 'commonjs', bin: binOf(json.bin, name), scripts: stringsOf(json.scripts), ranges,
    moduleAliases: stringsOf(json._moduleAliases),
  };
}

function binOf(bin: unknown, name: string | null): Record<string, string> {
  if (typeof bin === 'string') return name ? { [name.replace(/^@[^/]+\//, '')]: bin } : {};
  return stringsOf(bin);
}

function stringsOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** A broken manifest or config is the user's to fix; the lint run must go on, so it reads as "says nothing". */
export function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The folder of the workspace package `name` that code in `filename` imports: a package listed by
 * the `workspaces` of a manifest above it (`"apps/*"`, `"packages/prisma"`, or `{ packages: […] }`)
 * whose own manifest is named `name`. Null when `name` is no package of the workspace.
 */
export function workspacePackageDir(filename: string, name: string): string | null {
  if (!path.isAbsolute(filename)) return null;
  return workspaceByDir.get(`${path.dirname(filename)}\0${name}`, () => findWorkspacePackage(path.dirname(filename), name));
}

const workspaceByDir = new FreshCache<string | null>(5000);

function findWorkspacePackage(start: string, name: string): string | null {
  for (let manifest = findManifest(start); manifest !== null;) {
    const root = path.dirname(manifest);
    const json = parseJson(readText(manifest));
    const listed = isRecord(json) ? (isRecord(json.workspaces) ? json.workspaces.packages : json.workspaces) : undefined;
    if (Array.isArray(listed)) {
      for (const pattern of listed) {
        if (typeof pattern !== 'string' || pattern.startsWith('!')) continue;
        for (const dir of workspaceDirs(root, pattern)) if (readManifest(path.join(dir, 'package.json'))?.name === name) return dir;
      }
    }
    const parent = path.dirname(root);
    manifest = parent === root ? null : findManifest(parent);
  }
  return null;
}

/** The folders a workspace pattern names: a plain path, or one whose last segment is `*`. */
function workspaceDirs(root: string, pattern: string): string[] {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!clean.endsWith('/*')) return clean.includes('*') ? [] : [path.join(root, clean)];
  const parent = path.join(root, clean.slice(0, -2));
  if (parent.includes('*')) return [];
  return listDirectory(parent).dirs.map((d) => path.join(parent, d));
}

/** Forgets parsed manifests (tests). */
export function resetPackages(): void {
  workspaceByDir.clear();
  parsed.clear();
  nearestByDir.clear();
  installedByDir.clear();
  versionByDir.clear();
}
