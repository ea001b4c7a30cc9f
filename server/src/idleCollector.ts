/**
 * Young-generation garbage collection while the server waits for the next edit.
 *
 * A lint of a 1,000-line document allocates about 13 MB, most of it dead once the reply is sent
 * (the program, its tokens and scopes, ESLint's traversal). Left alone, V8 scavenges when the young
 * generation fills, which is in the middle of the next lint: it then copies that lint's live
 * program along with whatever the last one still holds, and the user waits for both. Two scavenges
 * right after a reply (the first moves survivors aside, the second promotes them) leave the young
 * generation empty, so the next lint of a document that size allocates without one.
 *
 * ```ts
 * const idle = new IdleCollector();
 * idle.cancel();     // a lint starts: no collection in its way
 * idle.schedule();   // its reply is out: collect unless another lint starts first
 * ```
 *
 * V8 offers no collection call without `--expose-gc`; the flag set at run time exposes `gc` in
 * contexts made afterwards. Where that fails, nothing is collected here and V8 collects as before.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

type Collect = (options: { type: 'minor' }) => void;

/** After the reply's bytes are written, and late enough that an edit typed right after wins. */
const DELAY_MS = 20;

let collect: Collect | null | undefined;

function collector(): Collect | null {
  if (collect !== undefined) return collect;
  collect = null;
  try {
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') collect = exposed as Collect;
    else {
      v8.setFlagsFromString('--expose-gc');
      const made: unknown = vm.runInNewContext('gc');
      if (typeof made === 'function') collect = made as Collect;
    }
  } catch {
    collect = null;
  }
  return collect;
}

export class IdleCollector {
  private timer: NodeJS.Timeout | null = null;

  /** `find` gives the collection to run; tests pass one that counts, the server V8's own. */
  constructor(private readonly find: () => Collect | null = collector) {}

  /** Collects once `DELAY_MS` pass with no `cancel`; a second call moves the collection later. */
  schedule(): void {
    this.cancel();
    if (!this.find()) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const run = this.find();
      run?.({ type: 'minor' });
      run?.({ type: 'minor' });
    }, DELAY_MS);
    // A pending collection must not keep the process alive at exit.
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
