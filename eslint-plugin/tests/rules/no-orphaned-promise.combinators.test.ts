import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// `Promise.all`, `race` and `any` reject only when one of their promises does: over mappers that
// catch their own errors, or calls that cannot reject, a chain on them is as safe as one on
// `allSettled`, provided its callbacks cannot throw either.
const MAPPED = `export function requestAll(urls, done) {
  Promise.all(urls.map(async (url) => {
    try {
      return await fetch(url);
    } catch (error) {
      console.error(error);
      return null;
    }
  })).then((responses) => { done(responses); });
}`;
const MAPPED_RETHROWS = MAPPED.replace('      return null;', '      throw error;');
const MAPPED_AWAITS_OUTSIDE = MAPPED.replace('    try {', '    await fetch(url + "/warm");\n    try {');

const GUARDED = `async function ping(url) {
  try { await fetch(url); } catch (error) { console.error(error); }
}
`;
const LITERAL = `${GUARDED}Promise.race([ping('a'), ping('b'), fetch('c').catch(() => null)]).finally(() => {});`;
const LITERAL_FETCH = `${GUARDED}Promise.race([ping('a'), fetch('c')]).finally(() => {});`;
const NAMED = `${GUARDED}export function pingAll(urls) { Promise.all(urls.map(ping)).then(() => {}); }`;
const THROWING_HANDLER = `${GUARDED}Promise.all([ping('a')]).then(() => { throw new Error('done'); });`;
const ANY_MAPPED = `${GUARDED}export function pingAny(urls) { Promise.any(urls.map(ping)).then(() => {}); }`;

/** The chain that starts at `start` is reported, with the suggestion to mark it `void`. */
const chain = (code: string, start: string) => {
  const before = code.slice(0, code.indexOf(start)).split('\n');
  return {
    code,
    errors: [{
      messageId: 'unhandledChain' as const,
      line: before.length,
      column: before[before.length - 1]!.length + 1,
      suggestions: [{ messageId: 'addVoid' as const, output: code.replace(start, `void ${start}`) }],
    }],
  };
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: combinators that cannot reject)', rule as never, {
  valid: [
    // Every mapped body catches its own error; the handler only calls on (a synchronous call).
    MAPPED,
    // An array of calls that cannot reject, and a chain that handles its own.
    LITERAL,
    // A same-file mapper whose body is guarded.
    NAMED,
  ],
  invalid: [
    // The catch rethrows: Promise.all rejects with it.
    chain(MAPPED_RETHROWS, 'Promise.all('),
    // An await before the try can reject the mapped promise.
    chain(MAPPED_AWAITS_OUTSIDE, 'Promise.all('),
    // One element is a plain fetch.
    chain(LITERAL_FETCH, 'Promise.race('),
    // The handler throws: the chain rejects even though Promise.all cannot.
    chain(THROWING_HANDLER, 'Promise.all('),
    // Promise.any rejects for an empty array.
    chain(ANY_MAPPED, 'Promise.any('),
  ],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: combinators that cannot reject)', rule as never, {
  valid: [LITERAL, NAMED],
  invalid: [
    // `strict` counts the handler's synchronous call, which could throw.
    chain(MAPPED, 'Promise.all('),
    chain(MAPPED_RETHROWS, 'Promise.all('),
    chain(LITERAL_FETCH, 'Promise.race('),
  ],
});
