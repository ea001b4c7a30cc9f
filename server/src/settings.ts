import plugin from 'eslint-plugin-async-hazards';

/**
 * The one settings schema. The server validates `workspace/configuration` answers against it, the
 * extension manifest's `contributes.configuration` is generated from it, and the CLI's `--rule`
 * flag uses the same rule names and severities.
 */

export const SETTINGS_SECTION = 'asyncHazards';

export const RULE_NAMES = Object.keys(plugin.rules) as RuleName[];
export type RuleName = keyof typeof plugin.rules;

export const SEVERITIES = ['off', 'warn', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const TYPE_AWARE_MODES = ['auto', 'on', 'off'] as const;
export type TypeAwareMode = (typeof TYPE_AWARE_MODES)[number];
export const RUN_MODES = ['onType', 'onSave'] as const;
export const PRESETS = ['recommended', 'strict'] as const;
export type Preset = (typeof PRESETS)[number];
export type RunMode = (typeof RUN_MODES)[number];

/** Per-rule severities keyed by rule name without the `async-hazards/` prefix. */
export type RuleSeverities = Partial<Record<RuleName, Severity>>;

export interface Settings {
  enable: boolean;
  rules: RuleSeverities;
  typeAware: TypeAwareMode;
  run: RunMode;
  maxFileSizeKb: number;
  preset: Preset;
  /** Globs, relative to the workspace folder, of files judged as one-shot or long-lived code. */
  oneShot: string[];
  longLived: string[];
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  enable: true,
  rules: Object.freeze({}),
  typeAware: 'auto',
  run: 'onType',
  maxFileSizeKb: 1024,
  preset: 'recommended',
  oneShot: Object.freeze([]) as unknown as string[],
  longLived: Object.freeze([]) as unknown as string[],
});

interface PropertySchema {
  type: 'boolean' | 'string' | 'integer' | 'object' | 'array';
  items?: { type: 'string' };
  default: unknown;
  description: string;
  enum?: readonly string[];
  enumDescriptions?: readonly string[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, { type: 'string'; enum: readonly string[]; description: string }>;
  additionalProperties?: boolean;
  scope?: 'resource';
}

/** JSON schema of every setting, keyed without the `asyncHazards.` section prefix. */
export const SETTINGS_SCHEMA: Readonly<Record<keyof Settings, PropertySchema>> = {
  enable: {
    type: 'boolean',
    default: DEFAULT_SETTINGS.enable,
    description: 'Run the async-hazards rules on open JavaScript and TypeScript files.',
    scope: 'resource',
  },
  rules: {
    type: 'object',
    default: {},
    description:
      'Severity per rule (`off`, `warn` or `error`), keyed by rule name without the `async-hazards/` prefix. Wins over the workspace ESLint config.',
    properties: Object.fromEntries(
      RULE_NAMES.map((name) => [
        name,
        { type: 'string', enum: SEVERITIES, description: `Severity of async-hazards/${name}.` },
      ]),
    ),
    additionalProperties: false,
    scope: 'resource',
  },
  typeAware: {
    type: 'string',
    enum: TYPE_AWARE_MODES,
    enumDescriptions: [
      'Use type information when a tsconfig.json or jsconfig.json covers the file.',
      'Always try to use type information.',
      'Never use type information (fastest).',
    ],
    default: DEFAULT_SETTINGS.typeAware,
    description: 'Whether rules may use TypeScript type information (finds more cross-file hazards).',
    scope: 'resource',
  },
  run: {
    type: 'string',
    enum: RUN_MODES,
    enumDescriptions: ['Lint while typing.', 'Lint when the file is saved.'],
    default: DEFAULT_SETTINGS.run,
    description: 'When to lint open files.',
    scope: 'resource',
  },
  maxFileSizeKb: {
    type: 'integer',
    minimum: 1,
    maximum: 1048576,
    default: DEFAULT_SETTINGS.maxFileSizeKb,
    description: 'Files larger than this many kilobytes are not linted.',
    scope: 'resource',
  },
  preset: {
    type: 'string',
    enum: PRESETS,
    enumDescriptions: [
      'Report a hazard where its context makes it one (a request path, data-sized input).',
      'Also report what recommended leaves out for context: startup code, entry scripts, sizes it cannot see.',
    ],
    default: DEFAULT_SETTINGS.preset,
    description: 'Which preset the rules judge by. A workspace ESLint config that sets `settings["async-hazards"].preset` wins over this.',
    scope: 'resource',
  },
  oneShot: {
    type: 'array',
    items: { type: 'string' },
    default: [],
    description: 'Globs, relative to the workspace folder, of files judged as one-shot code (scripts, migrations, CLI commands): added to the workspace config\'s `settings["async-hazards"].oneShot`.',
    scope: 'resource',
  },
  longLived: {
    type: 'array',
    items: { type: 'string' },
    default: [],
    description: 'Globs, relative to the workspace folder, of files judged as long-lived code (servers, workers); they win over oneShot.',
    scope: 'resource',
  },
};

export interface ValidatedSettings {
  settings: Settings;
  /** One line per invalid value that was replaced by its default. */
  problems: string[];
}

/** Validates a raw `asyncHazards` configuration object; invalid values fall back to defaults. */
export function validateSettings(raw: unknown): ValidatedSettings {
  const problems: string[] = [];
  const input = isRecord(raw) ? raw : {};
  if (raw !== undefined && raw !== null && !isRecord(raw)) problems.push(`${SETTINGS_SECTION} must be an object`);
  const settings: Settings = { ...DEFAULT_SETTINGS, rules: {} };

  const pick = <K extends keyof Settings>(key: K, valid: (value: unknown) => value is Settings[K]): void => {
    const value = input[key];
    if (value === undefined || value === null) return;
    if (valid(value)) settings[key] = value;
    else problems.push(`${SETTINGS_SECTION}.${key}: ${JSON.stringify(value)} is not valid; using ${JSON.stringify(DEFAULT_SETTINGS[key])}`);
  };
  pick('enable', (v): v is boolean => typeof v === 'boolean');
  pick('typeAware', (v): v is TypeAwareMode => TYPE_AWARE_MODES.includes(v as TypeAwareMode));
  pick('run', (v): v is RunMode => RUN_MODES.includes(v as RunMode));
  pick('preset', (v): v is Preset => PRESETS.includes(v as Preset));
  pick(
    'maxFileSizeKb',
    (v): v is number =>
      typeof v === 'number' && Number.isInteger(v) && v >= SETTINGS_SCHEMA.maxFileSizeKb.minimum! && v <= SETTINGS_SCHEMA.maxFileSizeKb.maximum!,
  );

  for (const key of ['oneShot', 'longLived'] as const) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      problems.push(`${SETTINGS_SECTION}.${key} must be an array of glob strings; using []`);
      continue;
    }
    settings[key] = value.filter((g): g is string => typeof g === 'string' && g.trim() !== '');
    if (settings[key].length !== value.length) problems.push(`${SETTINGS_SECTION}.${key}: entries that are not glob strings are ignored`);
  }

  const rules = input.rules;
  if (rules !== undefined && rules !== null) {
    if (!isRecord(rules)) problems.push(`${SETTINGS_SECTION}.rules must be an object keyed by rule name`);
    else {
      for (const [key, value] of Object.entries(rules)) {
        const name = key.startsWith('async-hazards/') ? key.slice('async-hazards/'.length) : key;
        const severity = parseSeverity(value);
        if (!isRuleName(name)) problems.push(`${SETTINGS_SECTION}.rules: unknown rule ${JSON.stringify(key)}`);
        else if (!severity) problems.push(`${SETTINGS_SECTION}.rules.${name}: ${JSON.stringify(value)} is not off, warn or error`);
        else settings.rules[name] = severity;
      }
    }
  }
  return { settings, problems };
}

export function isRuleName(name: string): name is RuleName {
  return (RULE_NAMES as string[]).includes(name);
}

/** Accepts `off`/`warn`/`error` and ESLint's numeric 0/1/2. */
export function parseSeverity(value: unknown): Severity | undefined {
  if (value === 0 || value === 1 || value === 2) return SEVERITIES[value];
  return typeof value === 'string' && (SEVERITIES as readonly string[]).includes(value) ? (value as Severity) : undefined;
}

/**
 * Parses one CLI `--rule` value: `name=severity` or `async-hazards/name=severity`.
 * Returns an error text instead of throwing so the caller chooses how to report it.
 */
export function parseRuleFlag(flag: string): { rule: RuleName; severity: Severity } | { error: string } {
  const eq = flag.lastIndexOf('=');
  const key = (eq < 0 ? flag : flag.slice(0, eq)).trim();
  const name = key.startsWith('async-hazards/') ? key.slice('async-hazards/'.length) : key;
  const severity = parseSeverity(eq < 0 ? '' : flag.slice(eq + 1).trim());
  if (!isRuleName(name)) return { error: `unknown rule ${JSON.stringify(key)}; known: ${RULE_NAMES.join(', ')}` };
  if (!severity) return { error: `--rule ${flag}: expected ${name}=off|warn|error` };
  return { rule: name, severity };
}

/** `contributes.configuration` for the extension manifest, generated from the schema above. */
export function manifestConfiguration(): { title: string; properties: Record<string, PropertySchema> } {
  return {
    title: 'Async Hazards',
    properties: Object.fromEntries(
      Object.entries(SETTINGS_SCHEMA).map(([key, schema]) => [`${SETTINGS_SECTION}.${key}`, schema]),
    ),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
