import type { FunctionNode } from './ast';
import { lintGeneration } from './localModules';

/**
 * Yes/no answers about a function that rest on its callers in other files (does only startup
 * code call it, only gated routes), kept for one lint and per depth of the caller walk: a cut-off
 * deep in one walk is not the answer at the depth another asks at. While an answer is computed
 * it reads `false`, so a call cycle (`a` calls `b` calls `a`) proves nothing; every question that
 * asks "does each caller …" and reads that provisional `false` is `false` itself, so what is left
 * cached holds whichever function of the cycle is asked first.
 */
export class CallerAnswers {
  private readonly cache = new WeakMap<FunctionNode, { generation: number; byDepth: Map<number, boolean> }>();

  answer(fn: FunctionNode, depth: number, compute: () => boolean): boolean {
    const generation = lintGeneration();
    let entry = this.cache.get(fn);
    if (!entry || entry.generation !== generation) {
      entry = { generation, byDepth: new Map() };
      this.cache.set(fn, entry);
    }
    const hit = entry.byDepth.get(depth);
    if (hit !== undefined) return hit;
    entry.byDepth.set(depth, false);
    const answer = compute();
    entry.byDepth.set(depth, answer);
    return answer;
  }
}
