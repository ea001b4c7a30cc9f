import type { TSESLint } from '@typescript-eslint/utils';
import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';

/**
 * `settings['async-hazards']`: a team declares its own libraries once, for every rule.
 * Rule options add to these lists; they never replace them.
 */
export interface ModuleExport {
  /** Module specifier as imported (`node:` prefix optional). */
  module: string;
  /** Export name; `default` for the default export or `module.exports`. */
  export?: string;
  /** A method called on an object constructed from `module` (or on any object when `module` is omitted). */
  method?: string;
}

export interface ResourceShape {
  /** Method that acquires (`lockAsync`). */
  acquire: string;
  /** Method that releases (`unlock`). */
  release: string;
  /** Restrict to objects constructed from this module. */
  module?: string;
}

/**
 * `recommended` reports a hazard where its context makes it one; `strict` also reports what
 * `recommended` leaves out for context (one-shot scripts, sizes it cannot see, …).
 */
export type Preset = 'recommended' | 'strict';

export interface SharedSettings {
  /** From `settings['async-hazards'].preset`; a rule with no preset setting behaves as `recommended`. */
  preset: Preset;
  resources: ResourceShape[];
  permitCallbacks: ModuleExport[];
  sleeps: ModuleExport[];
  limiters: ModuleExport[];
  blockingCalls: ModuleExport[];
}

const EMPTY: SharedSettings = {
  preset: 'recommended',
  resources: [],
  permitCallbacks: [],
  sleeps: [],
  limiters: [],
  blockingCalls: [],
};

const cache = new WeakMap<object, SharedSettings>();

/** Reads and validates the shared settings; malformed entries are dropped, never thrown on. */
export function getSharedSettings(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
): SharedSettings {
  const raw: unknown = (context.settings as Record<string, unknown> | undefined)?.['async-hazards'];
  if (raw === undefined || raw === null || typeof raw !== 'object') return EMPTY;
  const hit = cache.get(raw);
  if (hit) return hit;
  const record = raw as Record<string, unknown>;
  const parsed: SharedSettings = {
    preset: record['preset'] === 'strict' ? 'strict' : 'recommended',
    resources: list(record['resources']).filter(isResourceShape),
    permitCallbacks: list(record['permitCallbacks']).filter(isModuleExport),
    sleeps: list(record['sleeps']).filter(isModuleExport),
    limiters: list(record['limiters']).filter(isModuleExport),
    blockingCalls: list(record['blockingCalls']).filter(isModuleExport),
  };
  cache.set(raw, parsed);
  return parsed;
}

/** True under the `strict` preset (`configs.strict`, `--strict`, the extension's `asyncHazards.preset`). */
export function isStrict(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): boolean {
  return getSharedSettings(context).preset === 'strict';
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isResourceShape(value: unknown): value is ResourceShape {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['acquire'] === 'string' && typeof v['release'] === 'string' &&
    (v['module'] === undefined || typeof v['module'] === 'string');
}

function isModuleExport(value: unknown): value is ModuleExport {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const hasTarget = typeof v['export'] === 'string' || typeof v['method'] === 'string';
  return (v['module'] === undefined || typeof v['module'] === 'string') && hasTarget &&
    (v['export'] === undefined || typeof v['export'] === 'string') &&
    (v['method'] === undefined || typeof v['method'] === 'string');
}

/** JSON schema fragment for a rule option that takes `ModuleExport` entries. */
export const moduleExportListSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      module: { type: 'string', description: 'Module specifier, with or without the `node:` prefix; omit to match by name alone.' },
      export: { type: 'string', description: 'Export name; `default` for the default export.' },
      method: { type: 'string', description: 'Method name on an object created from the module.' },
    },
    additionalProperties: false,
  },
} as const;

/** The same entries as no-blocking-in-async's `blockingCalls` and `allow` options take them: `module` required. */
export const blockingEntrySchema: JSONSchema4 = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      module: { type: 'string', description: 'Module specifier, with or without the `node:` prefix.' },
      export: { type: 'string', description: 'Export name (`default` for the default export); dotted for members: `legacy.loadSync`.' },
      method: { type: 'string', description: 'Any export of the module ending in this member name.' },
    },
    required: ['module'],
    additionalProperties: false,
  },
};
