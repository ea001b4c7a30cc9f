import * as fs from 'node:fs';
import * as path from 'node:path';

/** The nearest `package.json` above a file and the packages it declares. */
export interface PackageDependencies {
  /** Absolute path of the manifest, or null when none was found (or the file has no real path). */
  manifest: string | null;
  /** Names from dependencies, devDependencies, peerDependencies and optionalDependencies. */
  names: ReadonlySet<string>;
}

const NONE: PackageDependencies = { manifest: null, names: new Set() };

/** Directory → nearest manifest path (null: none up to the root). Manifests rarely appear or vanish. */
const manifestByDir = new Map<string, string | null>();
/** Manifest path → parsed names, re-read when the file's modification time changes (editors keep running). */
const parsed = new Map<string, { mtimeMs: number; deps: PackageDependencies }>();

/**
 * The dependencies declared by the `package.json` nearest to `filename`, walking up directories.
 * Files without a real path (`<input>`, `<text>`, relative names from stdin) get an empty answer,
 * and so does a manifest that cannot be read or parsed: callers then simply offer no rewrite.
 */
export function nearestDependencies(filename: string): PackageDependencies {
  if (!path.isAbsolute(filename)) return NONE;
  const manifest = findManifest(path.dirname(filename));
  if (manifest === null) return NONE;
  const stat = fs.statSync(manifest, { throwIfNoEntry: false });
  if (!stat?.isFile()) return NONE;
  const hit = parsed.get(manifest);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.deps;
  const deps = { manifest, names: readNames(manifest) };
  parsed.set(manifest, { mtimeMs: stat.mtimeMs, deps });
  return deps;
}

/** True when `name` is declared in the nearest manifest above `filename`. */
export function declaresDependency(filename: string, name: string): boolean {
  return nearestDependencies(filename).names.has(name);
}

function findManifest(start: string): string | null {
  const visited: string[] = [];
  let dir = start;
  let found: string | null = null;
  for (;;) {
    const cached = manifestByDir.get(dir);
    if (cached !== undefined) {
      found = cached;
      break;
    }
    visited.push(dir);
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      found = candidate;
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of visited) manifestByDir.set(d, found);
  return found;
}

const FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

function readNames(manifest: string): ReadonlySet<string> {
  const json = parseJson(fs.readFileSync(manifest, 'utf8'));
  const names = new Set<string>();
  if (typeof json !== 'object' || json === null) return names;
  for (const field of FIELDS) {
    const block = (json as Record<string, unknown>)[field];
    if (typeof block !== 'object' || block === null) continue;
    for (const name of Object.keys(block)) names.add(name);
  }
  return names;
}

/** A broken manifest is the user's to fix; the lint run must go on, so it reads as "no dependencies". */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Forgets cached lookups (tests that create and delete manifests). */
export function clearDependencyCache(): void {
  manifestByDir.clear();
  parsed.clear();
}
