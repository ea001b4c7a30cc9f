import type { Connection } from 'vscode-languageserver';
import { ResponseError, ErrorCodes } from 'vscode-languageserver';

/** Thrown by parameter checks; turned into an `InvalidParams` response. */
export class InvalidParamsError extends Error {}

/**
 * Logging and user messages. Every problem is logged; the user hears about each cause once, so a
 * broken config or rule does not turn into a message per keystroke.
 */
export class Reporter {
  private readonly told = new Set<string>();

  constructor(private readonly connection: Connection) {}

  log(message: string): void {
    this.connection.console.log(message);
  }

  error(message: string, error?: unknown): void {
    this.connection.console.error(error === undefined ? message : `${message}\n${describe(error)}`);
  }

  /** Shows `message` once per `key` for the life of the server. */
  tellOnce(key: string, message: string, level: 'info' | 'warning' | 'error' = 'warning'): void {
    if (this.told.has(key)) return;
    this.told.add(key);
    const show =
      level === 'error'
        ? this.connection.window.showErrorMessage
        : level === 'warning'
          ? this.connection.window.showWarningMessage
          : this.connection.window.showInformationMessage;
    void show.call(this.connection.window, `Async Hazards: ${message}`).then(undefined, () => undefined);
  }

  /**
   * Wraps a handler so it never throws to the connection: malformed parameters become an
   * `InvalidParams` error response, anything else is logged, told once, and answered with `fallback`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the error data type is the caller's
  guard<P, R, F, A extends unknown[]>(name: string, fallback: F, handler: (params: P, ...rest: A) => R | Promise<R>): (params: P, ...rest: A) => Promise<R | F | ResponseError<any>> {
    return async (params, ...rest) => {
      try {
        return await handler(params, ...rest);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the error data type is the caller's
        if (error instanceof ResponseError) return error as ResponseError<any>;
        if (error instanceof InvalidParamsError) return new ResponseError<void>(ErrorCodes.InvalidParams, error.message);
        this.error(`${name} failed`, error);
        this.tellOnce(`handler:${name}`, `${name} failed: ${error instanceof Error ? error.message : String(error)}. Details are in the output log.`, 'error');
        return fallback;
      }
    };
  }

  /** Same for notifications: nothing to answer, so only log and tell. */
  guardNotification<P>(name: string, handler: (params: P) => void | Promise<void>): (params: P) => void {
    return (params) => {
      void (async () => {
        try {
          await handler(params);
        } catch (error) {
          this.error(`${name} failed`, error);
          this.tellOnce(`handler:${name}`, `${name} failed. Details are in the output log.`, 'error');
        }
      })();
    };
  }
}

/** Checks the shape every `textDocument/*` request shares. */
export function requireTextDocument(params: unknown): { uri: string } {
  const doc = (params as { textDocument?: { uri?: unknown } } | null | undefined)?.textDocument;
  if (!doc || typeof doc.uri !== 'string') throw new InvalidParamsError('params.textDocument.uri must be a string');
  return { uri: doc.uri };
}

export function requirePosition(params: unknown): { line: number; character: number } {
  const position = (params as { position?: { line?: unknown; character?: unknown } } | null | undefined)?.position;
  if (!position || !Number.isInteger(position.line) || !Number.isInteger(position.character)) {
    throw new InvalidParamsError('params.position must have integer line and character');
  }
  return position as { line: number; character: number };
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
