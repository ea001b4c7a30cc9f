/**
 * The project layer: facts about files and packages for the file being linted. Where an import
 * goes, the parsed module it names, which files import a file, and what the nearest package.json
 * and node_modules say. It sits below `analysis/`: it never imports it and never reports.
 *
 * Every answer is computed on first question and cached per process (each ESLint worker thread
 * has its own), in bounded caches. Unsaved editor text reaches it only through `setOverlay` and
 * `invalidate`, exported to integrations as `eslint-plugin-async-hazards/project`.
 *
 * `withReadLog(fn)` says which files an answer was built from (each path with a content hash,
 * `file`/`directory` for a bare stat, or `missing`), cached answers included, and
 * `isReadCurrent(read)` whether one still holds: the language server re-lints an open file when
 * something it read changes, and the CLI's cache keys a result on them. A cache kept above the
 * layer (in analysis) stays truthful by asking the layer again on a hit (its own caches are
 * cheap and replay their reads) rather than by remembering an answer per path.
 */
import { resetEntries } from './entries';
import { resetFileSystem } from './fileSystem';
import { resetImportIndex } from './importIndex';
import { resetModules } from './modules';
import { resetPackages } from './packages';
import { resetResolver } from './resolve';

export type { EntryReach, ProcessEntry } from './entries';
export { MAX_CONVENTION_FILES, MAX_PACKAGE_FILES, configValues, conventionLoaders, conventionName, endsWithLoadedName, entryReach, hasMainGuard, hasShebang, isBundlerHook, isDevelopmentOnly, isDevelopmentScript, isLibraryPackage, isServingScript, isTestFile, isTestSuiteFile, matchesGlob, packageFiles, packageFilesNaming, packageImporters, processEntriesOf, scriptsRun, scriptTargets } from './entries';
export type { FileRead, ReadState } from './fileSystem';
export { DISK_CACHE_MS, invalidate, isReadCurrent, listDirectory, overlaidPaths, pathKind, projectVersion, readLogOpen, readText, setOverlay, withReadLog } from './fileSystem';
export type { ResolvedImport } from './importIndex';
export { importersOf, importsOf } from './importIndex';
export type { ImportRecord } from './importRecords';
export { importRecords } from './importRecords';
export type { ParsedModule } from './modules';
export { isModuleText, moduleCacheStats, moduleTokens, parsedModule } from './modules';
export type { DependencyVersion, PackageDependencies, PackageFacts } from './packages';
export { declaresDependency, dependencyVersion, lowestMajor, nearestDependencies, nearestPackage, parseJson, workspacePackageDir } from './packages';
export type { Resolution } from './resolve';
export { bareName, resolveImport } from './resolve';

/** Forgets every overlay, cached read, parse, answer and index entry (tests). */
export function resetProject(): void {
  resetFileSystem();
  resetResolver();
  resetModules();
  resetImportIndex();
  resetPackages();
  resetEntries();
}
