import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// Job schedulers that call a job function and drop its promise, by package and major version:
// agenda before 2, Bull 3 and 4 with a job function that takes `done`, node-schedule with a job
// nobody keeps. The receiver is told by its construction or import; a version that cannot be read
// changes nothing.
const v1 = fixture('job-schedulers/v1/src/worker.ts');
const v2 = fixture('job-schedulers/v2/src/worker.ts');
const unknownVersion = fixture('src/worker.ts');

const AGENDA = `import Agenda from 'agenda';
const agenda = new Agenda({ db: { address: process.env.MONGO } });
agenda.define('digest', async (job) => {
  const users = await fetch(job.attrs.data.url);
  console.log(users.status);
});`;
const BULL = `const Queue = require('bull');
const queue = new Queue('render');
queue.process(async (job, done) => {
  const page = await fetch(job.data.url);
  done(null, page.status);
});`;
const BULL_IMPORTED = `const Queue = require('bull');
import launch from './launch';
const queue = new Queue('launch');
queue.process(launch);`;
const SCHEDULE = `import schedule from 'node-schedule';
schedule.scheduleJob('0 9 * * *', async () => {
  const reminders = await fetch('https://example.test/due');
  console.log(reminders.status);
});`;

const ignored = (code: string, line: number, column: number) => ({ code, filename: v1, errors: [{ messageId: 'asyncCallbackIgnored' as const, line, column }] });

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (job schedulers)', rule as never, {
  valid: [
    // agenda 2 and later await the job function and fail the job on a rejection.
    { code: AGENDA, filename: v2 },
    // Bull awaits a job function that takes no `done`.
    { code: BULL.replace('async (job, done) => {', 'async (job) => {').replace('  done(null, page.status);\n', '  return page.status;\n'), filename: v1 },
    // A kept job can have an `error` listener.
    { code: SCHEDULE.replace('schedule.scheduleJob(', 'export const job = schedule.scheduleJob('), filename: v1 },
    // No version to read: nothing changes.
    { code: AGENDA, filename: unknownVersion },
    { code: BULL, filename: unknownVersion },
    // The same method names on objects of no known package.
    { code: AGENDA.replace("import Agenda from 'agenda';", 'class Agenda { define(_n: string, _f: unknown) {} }'), filename: v1 },
    // A job function whose whole body is guarded cannot reject.
    { code: AGENDA.replace('  const users = await fetch(job.attrs.data.url);\n  console.log(users.status);', '  try {\n    await fetch(job.attrs.data.url);\n  } catch (error) {\n    console.error(error);\n  }'), filename: v1 },
  ],
  invalid: [
    ignored(AGENDA, 3, 25),
    ignored(BULL, 3, 15),
    ignored(BULL_IMPORTED, 4, 15),
    ignored(SCHEDULE, 2, 35),
  ],
});
