import * as fs from 'node:fs';
import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';
import { chunked, report } from './fanOutErrors';

// Where a collection's size comes from when the code that fills it is in another file of the
// package (tests/fixtures/fan-out-callers): routes.js registers `hotels.countByCity` as a route
// handler, campaigns.js calls each of mailer.js's helpers with rows, a literal or one page; and
// the package catalogue (a Typegoose model, a matrix-bot-sdk client declared on a class), and
// batch.js's helper that awaits its callback on one slice of its list after another (and gather.js,
// which collects one inbox per item of those slices). The
// folder declares neither p-map nor p-limit, so no case carries suggestions.
const file = (name: string): { filename: string; code: string } => {
  const filename = fixture(`fan-out-callers/src/${name}`);
  return { filename, code: fs.readFileSync(filename, 'utf8') };
};
createRecommendedRuleTester().run<MessageId, Options>('no-unbounded-fan-out (recommended: origins across files)', rule as never, {
  valid: [],
  invalid: [
    // The registered handler's query string, split: one query per city the client sends. Not
    // `countSome`, which no importer registers, nor `req.config` of `applyLimits`, which the
    // server put on the request itself (both strict's).
    { ...file('hotels.js'), errors: [report(6, 22)] },
    // `sendAll` gets a stored list from its one caller; `sendTeam` a literal, `sendPreview` one
    // page of rows: bounded by construction, under both presets.
    { ...file('mailer.js'), errors: [report(4, 9)] },
    // Every stored message of the chat; not the latest twenty.
    { ...file('messages.ts'), errors: [report(15, 9)] },
    // Every room the client has joined; not the rooms the program was configured with (strict's).
    { ...file('notifier.ts'), errors: [report(8, 12)] },
    // Slices pushed by a stepping loop, each awaited whole; not groups by owner (strict's unknown size).
    { ...file('batches.ts'), errors: [chunked(8, 11, '`batchSize`', 'array', 7)] },
    // Slices of 50 handed to the callback one after another by batch.processArray; not
    // batch.startAll, which starts every slice at once (strict's unknown-size fan-out).
    { ...file('deliver.js'), errors: [chunked(6, 11, '`size`', 'inboxes', 5)] },
    // Inboxes gathered one per id of a list walked in slices of 500, then posted to all at once;
    // not one count per slice, nor ids gathered from slices started together (strict's).
    { ...file('gather.js'), errors: [report(13, 9)] },
  ],
});

createRuleTester().run<MessageId, Options>('no-unbounded-fan-out (strict: origins across files)', rule as never, {
  valid: [],
  invalid: [
    { ...file('hotels.js'), errors: [report(6, 22), report(13, 18), report(18, 9)] },
    { ...file('mailer.js'), errors: [report(4, 9)] },
    { ...file('messages.ts'), errors: [report(15, 9)] },
    { ...file('notifier.ts'), errors: [report(8, 12), report(12, 12)] },
    { ...file('batches.ts'), errors: [chunked(8, 11, '`batchSize`', 'array', 7), report(20, 11)] },
    { ...file('deliver.js'), errors: [chunked(6, 11, '`size`', 'inboxes', 5), report(13, 11)] },
    { ...file('gather.js'), errors: [report(13, 9), report(31, 9)] },
  ],
});
