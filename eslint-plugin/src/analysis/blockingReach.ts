import type { TSESLint } from '@typescript-eslint/utils';
import type { BlockingOptions } from './blockingApis';
import { BLOCKING_MODULES, mentionsClock } from './blockingApis';
import { importedModules, normalizeModule } from './imports';
import { reachableModules } from './localModules';

type Services = Readonly<TSESLint.SourceCode>;

/** Cheap exit for files that import nothing blocking and mention no clock or `Atomics` (text searches: a superset). */
export function mayBlock(sourceCode: Services, options: BlockingOptions): boolean {
  const modules = importedModules(sourceCode);
  for (const m of modules) if (BLOCKING_MODULES.has(m)) return true;
  if (options.blockingCalls.some((e) => modules.has(normalizeModule(e.module).module))) return true;
  if (mentionsClock(sourceCode)) return true;
  return sourceCode.text.includes('Atomics');
}

/**
 * A blocking module (or a declared one) imported by one of the project's modules this file
 * imports, two levels deep: `saveDb()` from `./store` may block although this file imports no `fs`.
 */
export function mayBlockInLocalModules(sourceCode: Services, options: BlockingOptions): boolean {
  const own = importedModules(sourceCode);
  const reached = reachableModules(sourceCode);
  if (reached.size === own.size) return false;
  for (const m of reached) if (!own.has(m) && BLOCKING_MODULES.has(m)) return true;
  return options.blockingCalls.some((e) => { const m = normalizeModule(e.module).module; return !own.has(m) && reached.has(m); });
}
