import * as path from 'node:path';
import type { TSESTree } from '@typescript-eslint/typescript-estree';
import type { ImportRecord } from './importRecords';
import { importRecords } from './importRecords';
import { Lru } from './lru';
import { parsedModule } from './modules';
import type { Resolution } from './resolve';
import { resolveImport } from './resolve';

/** One import of a file, with where it goes. */
export interface ResolvedImport extends ImportRecord {
  resolution: Resolution;
}

/** Files seen in this process are remembered up to this count, oldest forgotten first. */
const MAX_FILES = 20_000;

/** Importing file → the local files it imports. */
const forward = new Lru<string, ReadonlySet<string>>(MAX_FILES, { onEvict: (file, targets) => unlink(file, targets) });
/** Imported local file → the files seen importing it. */
const reverse = new Map<string, Set<string>>();
/** The answer for a program ESLint already parsed: rules asking again pay nothing. */
const byProgram = new WeakMap<TSESTree.Program, readonly ResolvedImport[]>();

/**
 * The imports of `file` (absolute path) and where each goes, recorded in the reverse index.
 * Pass the linted file's `program` (and its text, which lets the scan skip files without
 * `require`/`import()`); without one the file is read and parsed like any imported module.
 */
export function importsOf(file: string, program?: TSESTree.Program, text?: string): readonly ResolvedImport[] {
  if (!path.isAbsolute(file)) return [];
  if (program) {
    const known = byProgram.get(program);
    if (known) return known;
    const resolved = resolveAll(file, importRecords(program, text));
    byProgram.set(program, resolved);
    return resolved;
  }
  const module = parsedModule(file);
  return module ? resolveAll(file, module.imports) : [];
}

/** The files seen in this process that import `file`, sorted. Files never linted or parsed are unknown. */
export function importersOf(file: string): string[] {
  return [...(reverse.get(path.resolve(file)) ?? [])].sort();
}

function resolveAll(file: string, records: readonly ImportRecord[]): ResolvedImport[] {
  const resolved = records.map((record) => ({ ...record, resolution: resolveImport(file, record.specifier) }));
  const targets = new Set<string>();
  for (const r of resolved) if (r.resolution.kind === 'file' && r.resolution.local) targets.add(r.resolution.path);
  record(path.resolve(file), targets);
  return resolved;
}

function record(file: string, targets: ReadonlySet<string>): void {
  const before = forward.get(file);
  if (before) unlink(file, before);
  forward.set(file, targets);
  for (const target of targets) {
    let importers = reverse.get(target);
    if (!importers) reverse.set(target, (importers = new Set()));
    importers.add(file);
  }
}

function unlink(file: string, targets: ReadonlySet<string>): void {
  for (const target of targets) {
    const importers = reverse.get(target);
    if (!importers) continue;
    importers.delete(file);
    if (importers.size === 0) reverse.delete(target);
  }
}

/** Forgets the index (tests). */
export function resetImportIndex(): void {
  forward.clear();
  reverse.clear();
}
