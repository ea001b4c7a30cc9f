import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { isDelayedRxRetry } from '../../src/analysis';
import { parse } from './parse';

const IMPORTS = `import { defer, from, timer, lastValueFrom, throwError } from 'rxjs';\nimport { retryWhen, retry, mergeMap, map, take } from 'rxjs/operators';\n`;

/** Is the call whose text is `text` in `code` a delayed rxjs retry? */
function delayed(code: string, text: string): boolean {
  const parsed = parse(`${IMPORTS}${code}`);
  return isDelayedRxRetry(parsed.sourceCode, parsed.find(AST_NODE_TYPES.CallExpression, text));
}

describe('isDelayedRxRetry: retries that wait', () => {
  it('retryWhen whose notifier returns a timer, made a promise with toPromise()', () => {
    const code = `const p = defer(() => from(work())).pipe(retryWhen((errors) => errors.pipe(mergeMap(() => timer(1000))))).toPromise();`;
    assert.equal(delayed(code, 'defer(() => from(work())).pipe(retryWhen((errors) => errors.pipe(mergeMap(() => timer(1000))))).toPromise()'), true);
  });
  it('retry({ delay }) with milliseconds, through lastValueFrom', () => {
    const code = `const p = lastValueFrom(source.pipe(retry({ count: 3, delay: 500 })));`;
    assert.equal(delayed(code, 'lastValueFrom(source.pipe(retry({ count: 3, delay: 500 })))'), true);
  });
  it('retry({ delay }) with a function returning a timer', () => {
    const code = `const p = source.pipe(map(f)).pipe(retry({ delay: (e, n) => timer(n * 100) })).toPromise();`;
    assert.equal(delayed(code, 'source.pipe(map(f)).pipe(retry({ delay: (e, n) => timer(n * 100) })).toPromise()'), true);
  });
});

describe('isDelayedRxRetry: not a delayed retry', () => {
  it('a timer that is not a retry delay', () => {
    const code = `const p = lastValueFrom(timer(1000).pipe(map(() => 1)));`;
    assert.equal(delayed(code, 'lastValueFrom(timer(1000).pipe(map(() => 1)))'), false);
  });
  it('a retry without a delay', () => {
    const code = `const p = lastValueFrom(source.pipe(retry(3)));`;
    assert.equal(delayed(code, 'lastValueFrom(source.pipe(retry(3)))'), false);
  });
  it('retry({ delay: 0 })', () => {
    const code = `const p = lastValueFrom(source.pipe(retry({ count: 3, delay: 0 })));`;
    assert.equal(delayed(code, 'lastValueFrom(source.pipe(retry({ count: 3, delay: 0 })))'), false);
  });
  it('retryWhen whose notifier only counts', () => {
    const code = `const p = source.pipe(retryWhen((errors) => errors.pipe(take(3)))).toPromise();`;
    assert.equal(delayed(code, 'source.pipe(retryWhen((errors) => errors.pipe(take(3)))).toPromise()'), false);
  });
  it('a retryWhen not from rxjs', () => {
    const code = `const retryWhen2 = retryWhen;\nconst p = source.pipe(myRetryWhen((e) => e.pipe(timer(1)))).toPromise();`;
    assert.equal(delayed(code, 'source.pipe(myRetryWhen((e) => e.pipe(timer(1)))).toPromise()'), false);
  });
});
