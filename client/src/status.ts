import * as vscode from 'vscode';
import { documentSelector } from './config';

export type StatusKind = 'starting' | 'ready' | 'linting' | 'types' | 'error' | 'stopped';

const LABELS: Record<StatusKind, string> = {
  starting: '$(sync~spin) Async Hazards: starting',
  ready: '$(check) Async Hazards',
  linting: '$(sync~spin) Async Hazards: linting',
  types: '$(sync~spin) Async Hazards: building type information',
  error: '$(error) Async Hazards: error',
  stopped: '$(circle-slash) Async Hazards: stopped',
};

/** The language status item ({} in the status bar): server state and the time of the last lint. */
export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;
  private lastLint: string | undefined;

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem('asyncHazards.status', documentSelector);
    this.item.name = 'Async Hazards';
    this.item.command = { title: 'Show Output', command: 'asyncHazards.showOutput' };
    this.set('starting');
  }

  /** `detail` explains an error; `lintedAt`/`durationMs` record a finished lint. */
  set(kind: StatusKind, info: { detail?: string; lintedAt?: Date; durationMs?: number; typeAware?: boolean } = {}): void {
    if (info.lintedAt !== undefined && !Number.isNaN(info.lintedAt.getTime())) {
      const took = info.durationMs === undefined ? '' : ` in ${Math.round(info.durationMs)} ms`;
      const types = info.typeAware === undefined ? '' : info.typeAware ? ', with type information' : ', without type information';
      this.lastLint = `last lint ${info.lintedAt.toLocaleTimeString()}${took}${types}`;
    }
    this.item.text = LABELS[kind];
    this.item.busy = kind === 'starting' || kind === 'linting' || kind === 'types';
    this.item.severity =
      kind === 'error' ? vscode.LanguageStatusSeverity.Error
        : kind === 'stopped' ? vscode.LanguageStatusSeverity.Warning
          : vscode.LanguageStatusSeverity.Information;
    this.item.detail = info.detail ?? this.lastLint;
  }

  dispose(): void {
    this.item.dispose();
  }
}
