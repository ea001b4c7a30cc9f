/**
 * Custom protocol between the async-hazards language server and its clients. Declared once here;
 * the VS Code client imports this file.
 */
import { NotificationType } from 'vscode-languageserver-protocol';
import type { TextEdit } from 'vscode-languageserver-protocol';

/**
 * Node.js flags the extension starts the server with; `bench/lsp-latency.mjs` starts it with the
 * same. A lint allocates about 13 MB per 1,000 lines, nearly all of it dead once the reply is out.
 * V8's young generation holds 16 MB per semi-space by default and starts smaller still, so on a
 * large document scavenges land inside the lint, each copying the program it is still using; the
 * server empties the young generation between lints (idleCollector.ts), and a larger one lets a
 * whole lint of a 5,000-line document fit in it. The cost is memory: up to 128 MB of young
 * generation while large documents are being linted, 32 MB at least.
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=64'];

/** `Diagnostic.source` of every finding. */
export const DIAGNOSTIC_SOURCE = 'async-hazards';

/** `initializationOptions` the client sends. */
export interface InitializationOptions {
  /** Whether the workspace is trusted: only then are `eslint.config.*` files executed. Default false. */
  workspaceTrusted?: boolean;
  /** Folder URIs trusted individually (multi-root), in addition to `workspaceTrusted`. */
  trustedFolders?: string[];
}

export interface DidGrantTrustParams {
  /** Folder URIs now trusted; absent means every folder of the workspace. */
  folders?: string[];
}

/** Client → server: the user granted workspace trust. */
export const DidGrantTrustNotification = new NotificationType<DidGrantTrustParams>('asyncHazards/didGrantTrust');

export type ServerState = 'ready' | 'linting' | 'building' | 'error';

export interface StatusParams {
  state: ServerState;
  /** The document this state is about, when there is one. */
  uri?: string;
  /** Document version that was linted (`ready` after a lint). */
  version?: number;
  /** Human-readable detail, e.g. the error or the project being built. */
  message?: string;
  /** Duration of the last lint in milliseconds. */
  lastLintMs?: number;
  /** When the last lint finished (ISO 8601). */
  lastLintAt?: string;
  /** Whether the last lint used type information. */
  typeAware?: boolean;
  /** Which parser parsed the last linted text: oxc's native one, @typescript-eslint/parser, or hermes-eslint for Flow. */
  parser?: 'oxc' | 'typescript-eslint' | 'hermes-eslint';
}

/** Server → client: what the server is doing. */
export const StatusNotification = new NotificationType<StatusParams>('asyncHazards/status');

/** Commands the server executes (`workspace/executeCommand`). */
export const Commands = {
  /** Lints every JS/TS file of every folder; findings arrive through `workspace/diagnostic`. */
  scanWorkspace: 'asyncHazards.scanWorkspace',
  /** Opens the bundled docs page of a rule. Argument: the rule id (`async-hazards/<name>` or `<name>`). */
  showDocumentation: 'asyncHazards.showDocumentation',
} as const;

export interface ScanSummary {
  folders: number;
  files: number;
  findings: number;
  durationMs: number;
}

/** Code action kind of "fix all autofixable async-hazards problems". */
export const FIX_ALL_KIND = 'source.fixAll.async-hazards';

/** `Diagnostic.data`: everything a code action needs, so no state is kept on the server. */
export interface DiagnosticData {
  ruleId: string;
  /** Document version the edits were computed for. */
  version: number | null;
  /** The rule's autofix, if any. */
  fix?: TextEdit;
  suggestions: Array<{ title: string; edit: TextEdit }>;
  /** The process role and phase the finding was judged in. */
  context?: { role: 'one-shot' | 'long-lived'; phase: 'startup' | 'serving' | null };
}
