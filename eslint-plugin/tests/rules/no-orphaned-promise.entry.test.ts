import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';

// An entry script starting its own `main()` at top level: left unhandled, a rejection makes Node
// print the error and exit non-zero, which is what the script wants. `recommended` leaves that
// alone; `strict` reports it, and so does `recommended` where the process swallows rejections.
const ENTRY = {
  main: `async function main() { await fetch('https://example.com'); }
main();`,
  chain: `async function bootstrap() { await fetch('https://example.com'); }
bootstrap().then(() => console.log('ready'));`,
  iife: `(async () => { await fetch('https://example.com'); })();`,
};

// A script that runs itself when it is the entry (`require.main === module`) and starts its own
// export there, by name or through `exports`: importers may call it too, but this call is the entry's.
const GUARDED = {
  named: `export async function main() { await fetch('https://example.com'); }
if (require.main === module) main();`,
  exports: `exports.start = async () => { await fetch('https://example.com'); };
if (require.main === module) exports.start();`,
};

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: entry scripts)', rule as never, {
  valid: [ENTRY.main, ENTRY.chain, ENTRY.iife, GUARDED.named, GUARDED.exports],
  invalid: [
    // The process keeps running after a rejection: the entry failed and nobody notices.
    {
      code: `process.on('unhandledRejection', (reason) => console.error(reason));
async function main() { await fetch('https://example.com'); }
main();`,
      errors: [{ messageId: 'orphanedPromise', line: 3, column: 1, suggestions: [{ messageId: 'addVoid', output: `process.on('unhandledRejection', (reason) => console.error(reason));
async function main() { await fetch('https://example.com'); }
void main();` }] }],
    },
    // Exported: someone else may call it, and inside a function it is no entry start.
    {
      code: `export async function main() { await fetch('https://example.com'); }
main();`,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: `export async function main() { await fetch('https://example.com'); }
void main();` }] }],
    },
    // The same call without the guard: the module starts its export wherever it is loaded.
    {
      code: `exports.start = async () => { await fetch('https://example.com'); };
exports.start();`,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: `exports.start = async () => { await fetch('https://example.com'); };
void exports.start();` }] }],
    },
    {
      code: `async function sync() { await fetch('https://example.com'); }
export function onTick() { sync(); }
sync();`,
      errors: [
        { messageId: 'orphanedPromise', line: 2, column: 28, suggestions: [{ messageId: 'addVoid', output: `async function sync() { await fetch('https://example.com'); }
export function onTick() { void sync(); }
sync();` }] },
        { messageId: 'orphanedPromise', line: 3, column: 1, suggestions: [{ messageId: 'addVoid', output: `async function sync() { await fetch('https://example.com'); }
export function onTick() { sync(); }
void sync();` }] },
      ],
    },
  ],
});

// A listener that exits keeps the wanted outcome: still an entry start.
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: exiting listener)', rule as never, {
  valid: [`process.on('unhandledRejection', (reason) => { console.error(reason); process.exit(1); });
async function main() { await fetch('https://example.com'); }
main();`],
  invalid: [],
});

createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: entry scripts)', rule as never, {
  valid: [],
  invalid: [
    { code: ENTRY.main, errors: [{ messageId: 'orphanedPromise', line: 2, column: 1, suggestions: [{ messageId: 'addVoid', output: ENTRY.main.replace('\nmain();', '\nvoid main();') }] }] },
    { code: ENTRY.iife, errors: [{ messageId: 'orphanedPromise', line: 1, column: 1, suggestions: [{ messageId: 'addVoid', output: `void ${ENTRY.iife}` }] }] },
    {
      code: GUARDED.exports,
      errors: [{ messageId: 'orphanedPromise', line: 2, column: 30, suggestions: [{ messageId: 'addVoid', output: GUARDED.exports.replace(') exports.start();', ') void exports.start();') }] }],
    },
  ],
});
