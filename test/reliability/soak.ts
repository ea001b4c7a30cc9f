// The server soak: drives the BUILT server over stdio through thousands of random incremental edits
// across several open documents, mixed with hostile moments (broken syntax, a 2 MB file, a binary
// file, a document closed while it is being linted, invalid settings, malformed requests and a
// malformed message). Checks that the process stays up, answers every request, keeps its RSS near
// the level it had after warm-up, and ends with the same diagnostics a fresh server gives.
//   node --import tsx test/reliability/soak.ts [--edits N] [--seed N]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { Diagnostic, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { createRandom } from './fuzz';
import { LspHarness, languageOf, repoRoot, uriOf } from '../protocol/harness';

const SNIPPETS = [
  'async ',
  'await ',
  '{',
  '}',
  '(',
  ')',
  ';\n',
  '\n  const release = await lock.acquire();\n',
  '\n  release();\n',
  '\n  readFileSync(path, "utf8");\n',
  '\n  refresh();\n',
  '\n  await Promise.all(ids.map((id) => load(id)));\n',
  '\n  await new Promise((r) => setTimeout(r, 10));\n',
  'try {\n',
  '} finally {\n',
  '/* ',
  ' */',
  '`',
  "'",
];

export interface SoakOptions {
  edits: number;
  seed: number;
  /** Edits before the RSS baseline is taken; the hostile moments all happen once before it. */
  warmUp: number;
  /** Take an RSS sample every this many edits after warm-up. */
  sampleEvery: number;
  /** Also lint the 2 MB file once under a raised size limit (slow: seconds to minutes). */
  lintBigFile: boolean;
  log?: (line: string) => void;
}

export interface SoakResult {
  edits: number;
  requests: number;
  errorResponses: number;
  /** RSS in bytes: after warm-up, then one sample every `sampleEvery` edits. */
  rssBaseline: number;
  rssSamples: number[];
  finalDocuments: number;
  /** Documents whose final diagnostics differ from a fresh server's. */
  mismatches: string[];
  serverAlive: boolean;
  stderr: string;
}

interface Doc {
  uri: string;
  file: string;
  version: number;
  text: string;
}

function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

async function rssOf(pid: number): Promise<number> {
  const status = await fs.promises.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** What two servers must agree on: position, rule, message, severity. */
function comparable(diagnostics: Diagnostic[]): string[] {
  return diagnostics
    .map((d) => JSON.stringify([d.range, d.code ?? null, d.severity ?? null, d.message]))
    .sort();
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const random = createRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'async-hazards-soak-'));
  const sources = (await fs.promises.readdir(path.join(repoRoot, 'samples', 'src')))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  for (const name of sources) await fs.promises.copyFile(path.join(repoRoot, 'samples', 'src', name), path.join(folder, name));
  const settings = { typeAware: 'off' };
  const { harness } = await LspHarness.start({ folders: [folder], settings: { ...settings } });
  const result: SoakResult = { edits: 0, requests: 0, errorResponses: 0, rssBaseline: 0, rssSamples: [], finalDocuments: 0, mismatches: [], serverAlive: true, stderr: '' };
  const docs = new Map<string, Doc>();
  let bigFileLinted = false;

  /** Every request must be answered; an error response is an answer, a timeout is not. */
  const ask = async <R>(method: string, params: unknown): Promise<R | undefined> => {
    result.requests++;
    try {
      return await harness.request<R>(method, params, 300_000);
    } catch (error) {
      if (error instanceof Error && /got no response/.test(error.message)) throw error;
      result.errorResponses++;
      return undefined;
    }
  };
  const open = async (file: string, text: string): Promise<Doc> => {
    const doc: Doc = { uri: uriOf(file), file, version: 1, text };
    docs.set(doc.uri, doc);
    await harness.notify('textDocument/didOpen', { textDocument: { uri: doc.uri, languageId: languageOf(file), version: 1, text } });
    return doc;
  };
  const close = async (doc: Doc): Promise<void> => {
    docs.delete(doc.uri);
    await harness.notify('textDocument/didClose', { textDocument: { uri: doc.uri } });
  };
  const change = async (doc: Doc, start: number, end: number, newText: string): Promise<void> => {
    const range: Range = { start: positionAt(doc.text, start), end: positionAt(doc.text, end) };
    doc.text = doc.text.slice(0, start) + newText + doc.text.slice(end);
    doc.version++;
    const contentChanges: TextDocumentContentChangeEvent[] = [{ range, text: newText }];
    await harness.notify('textDocument/didChange', { textDocument: { uri: doc.uri, version: doc.version }, contentChanges });
    result.edits++;
  };
  const randomEdit = async (doc: Doc): Promise<void> => {
    const at = Math.floor(random() * (doc.text.length + 1));
    const roll = random();
    if (roll < 0.45) await change(doc, at, at, pick(SNIPPETS));
    else if (roll < 0.8) await change(doc, at, Math.min(doc.text.length, at + 1 + Math.floor(random() * 20)), '');
    else await change(doc, at, Math.min(doc.text.length, at + Math.floor(random() * 10)), pick(SNIPPETS));
  };
  const pullAll = async (): Promise<void> => {
    for (const doc of docs.values()) await ask('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
  };

  const hostile: Array<[string, () => Promise<void>]> = [
    [
      'a 2 MB file, skipped at the default size limit, then linted under a raised one',
      async () => {
        const unit = (await fs.promises.readFile(path.join(folder, sources[0]!), 'utf8')).replace(/^import .*$/gm, '');
        const big = await open(path.join(folder, 'big.ts'), unit.repeat(Math.ceil((2 * 1024 * 1024) / unit.length)));
        await ask('textDocument/diagnostic', { textDocument: { uri: big.uri } });
        await change(big, 10, 10, 'async ');
        if (options.lintBigFile && !bigFileLinted) {
          bigFileLinted = true;
          harness.settings = { ...settings, maxFileSizeKb: 4096 };
          await harness.notify('workspace/didChangeConfiguration', { settings: null });
          await ask('textDocument/diagnostic', { textDocument: { uri: big.uri } });
          harness.settings = { ...settings };
          await harness.notify('workspace/didChangeConfiguration', { settings: null });
        }
        await close(big);
      },
    ],
    [
      'a binary file',
      async () => {
        const bytes = Array.from({ length: 4096 }, () => String.fromCharCode(Math.floor(random() * 256))).join('');
        const binary = await open(path.join(folder, 'blob.js'), `\u0000\u0000\u0000${bytes}`);
        await ask('textDocument/diagnostic', { textDocument: { uri: binary.uri } });
        await change(binary, 5, 5, 'await ');
        await ask('textDocument/hover', { textDocument: { uri: binary.uri }, position: { line: 0, character: 3 } });
        await close(binary);
      },
    ],
    [
      'a document closed while it is being linted',
      async () => {
        const doc = await open(path.join(folder, 'closing.ts'), await fs.promises.readFile(path.join(folder, pick(sources)), 'utf8'));
        const pending = ask('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
        await change(doc, 0, 0, 'async function x() { await y(); }\n');
        await close(doc);
        await pending;
        await ask('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
        await ask('textDocument/codeAction', { textDocument: { uri: doc.uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, context: { diagnostics: [] } });
      },
    ],
    [
      'invalid settings',
      async () => {
        harness.settings = { typeAware: 42, rules: 'all', run: 'sometimes', maxFileSizeKb: -1, ignore: {}, enable: 'yes' };
        await harness.notify('workspace/didChangeConfiguration', { settings: null });
        await pullAll();
        harness.settings = { rules: { 'no-such-rule': 'error', 'release-in-finally': 'loud' }, typeAware: 'off' };
        await harness.notify('workspace/didChangeConfiguration', { settings: { asyncHazards: null } });
        await pullAll();
        harness.settings = { ...settings };
        await harness.notify('workspace/didChangeConfiguration', { settings: null });
        await pullAll();
      },
    ],
    [
      'malformed requests',
      async () => {
        const some = [...docs.values()][0]!;
        await ask('textDocument/diagnostic', {});
        await ask('textDocument/diagnostic', { textDocument: { uri: 'not a uri' } });
        await ask('textDocument/codeAction', null);
        await ask('textDocument/codeAction', { textDocument: { uri: some.uri }, range: { start: { line: -1, character: 99999 }, end: { line: 1e9, character: -5 } }, context: { diagnostics: [{ range: null, message: 7 }] } });
        await ask('textDocument/hover', { textDocument: { uri: some.uri }, position: { line: 1e9, character: 1e9 } });
        await ask('workspace/executeCommand', { command: 'asyncHazards.showDocumentation', arguments: [null, 42] });
        await ask('workspace/executeCommand', { command: 'no.such.command' });
        await ask('asyncHazards/noSuchMethod', { x: 1 });
        await harness.notify('textDocument/didChange', { textDocument: { uri: 'file:///never/opened.ts', version: 3 }, contentChanges: [{ text: 'x' }] });
        await harness.notify('textDocument/didClose', { textDocument: { uri: 'file:///never/opened.ts' } });
        // A message whose body is not JSON: the transport must drop it and carry on.
        const body = '{"jsonrpc":"2.0","id":';
        harness.process.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        await ask('textDocument/diagnostic', { textDocument: { uri: some.uri } });
      },
    ],
  ];

  try {
    for (const name of sources.slice(0, 5)) await open(path.join(folder, name), await fs.promises.readFile(path.join(folder, name), 'utf8'));
    await pullAll();
    const hostileAt = new Map(hostile.map(([name, run], i) => [Math.floor(((i + 1) * options.warmUp) / (hostile.length + 1)), [name, run] as const]));
    let step = 0;
    while (result.edits < options.edits) {
      const moment = hostileAt.get(step);
      if (moment) {
        log(`edit ${result.edits}: ${moment[0]}`);
        await moment[1]();
      }
      // After warm-up, the hostile moments come round again every few hundred edits.
      if (step > options.warmUp && step % 400 === 0) {
        const [name, run] = hostile[(step / 400) % hostile.length]!;
        log(`edit ${result.edits}: ${name}`);
        await run();
      }
      await randomEdit(pick([...docs.values()]));
      if (step % 10 === 0) await ask('textDocument/diagnostic', { textDocument: { uri: pick([...docs.values()]).uri } });
      if (step % 97 === 0) {
        const doc = pick([...docs.values()]);
        const diagnostics = await ask<{ items?: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
        await ask('textDocument/codeAction', { textDocument: { uri: doc.uri }, range: diagnostics?.items?.[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: diagnostics?.items ?? [] } });
        await ask('textDocument/hover', { textDocument: { uri: doc.uri }, position: positionAt(doc.text, Math.floor(random() * doc.text.length)) });
      }
      step++;
      if (step === options.warmUp) {
        await pullAll();
        result.rssBaseline = await rssOf(harness.process.pid!);
        log(`edit ${result.edits}: RSS after warm-up ${(result.rssBaseline / 1048576).toFixed(1)} MB`);
      } else if (step > options.warmUp && step % options.sampleEvery === 0) {
        await pullAll();
        result.rssSamples.push(await rssOf(harness.process.pid!));
      }
    }
    await pullAll();
    if (result.rssBaseline > 0) result.rssSamples.push(await rssOf(harness.process.pid!));

    // The final text of every open document, linted by a server that never saw the edits.
    const finals = new Map<string, Diagnostic[]>();
    for (const doc of docs.values()) finals.set(doc.uri, (await ask<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: doc.uri } }))?.items ?? []);
    result.finalDocuments = finals.size;
    const { harness: fresh } = await LspHarness.start({ folders: [folder], settings: { ...settings } });
    try {
      for (const doc of docs.values()) {
        const uri = await fresh.open(doc.file, doc.text);
        const expected = await fresh.diagnostics(uri, 300_000);
        if (JSON.stringify(comparable(expected)) !== JSON.stringify(comparable(finals.get(doc.uri)!))) result.mismatches.push(path.basename(doc.file));
      }
    } finally {
      await fresh.shutdown();
    }
    result.serverAlive = harness.process.exitCode === null && harness.process.signalCode === null;
  } finally {
    result.stderr = harness.stderr;
    await harness.shutdown();
    await fs.promises.rm(folder, { recursive: true, force: true });
  }
  return result;
}

export function formatSoak(result: SoakResult, seconds: number): string {
  const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
  const peak = Math.max(0, ...result.rssSamples);
  return [
    `soak: ${result.edits} edits, ${result.requests} requests (${result.errorResponses} answered with an error) in ${seconds.toFixed(1)} s; server alive: ${result.serverAlive}`,
    result.rssBaseline > 0
      ? `soak: RSS after warm-up ${mb(result.rssBaseline)}, samples min ${mb(Math.min(...result.rssSamples))} / max ${mb(peak)} (${((peak / result.rssBaseline - 1) * 100).toFixed(1)} % over baseline), last ${mb(result.rssSamples.at(-1) ?? 0)}`
      : 'soak: no RSS samples',
    `soak: final diagnostics of ${result.finalDocuments} documents vs a fresh server: ${result.mismatches.length === 0 ? 'identical' : `differ for ${result.mismatches.join(', ')}`}`,
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({ options: { edits: { type: 'string', default: '5000' }, seed: { type: 'string', default: '20261130' } } });
  const edits = Number(values.edits);
  const started = Date.now();
  void soak({ edits, seed: Number(values.seed), warmUp: Math.floor(edits / 5), sampleEvery: 250, lintBigFile: true, log: (line) => process.stdout.write(`${line}\n`) }).then((result) => {
    process.stdout.write(`${formatSoak(result, (Date.now() - started) / 1000)}\n`);
    const peak = Math.max(0, ...result.rssSamples);
    const problems = [
      !result.serverAlive && 'the server exited',
      result.mismatches.length > 0 && 'final diagnostics differ from a fresh lint',
      peak > result.rssBaseline * 1.2 && 'RSS grew more than 20 % over its post-warm-up level',
    ].filter(Boolean);
    if (problems.length > 0) process.stdout.write(`soak FAILED: ${problems.join('; ')}\n`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  });
}
