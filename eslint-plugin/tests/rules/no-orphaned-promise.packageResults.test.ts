import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester } from '../ruleTester';
import { dropped } from './orphanedCases';

// Package objects that other package objects hand out: a Bull job (declared with the package's
// `Job` type, or received by a Bull queue's processor or job event listener), and the discord.js
// structure an awaited call resolves to (`await message.startThread(…)`, `await guild.members.fetch(id)`).

const JOB_TYPED = `import Queue, { Job } from 'bull';
const queue = new Queue('webhooks');
queue.on('completed', (job: Job) => {
  job.remove();
});`;
const JOB_LISTENER = `const Queue = require('bull');
const queue = new Queue('webhooks');
queue.on('failed', (job, error) => {
  console.error(error);
  job.retry();
});`;
const JOB_PROCESSOR = `const Queue = require('bull');
const queue = new Queue('render');
queue.process(async (job) => {
  job.log('started');
  return render(job.data);
});`;
const THREAD = `import { Message } from 'discord.js';
export async function welcome(message: Message) {
  const thread = await message.startThread({ name: 'Welcome' });
  thread.sendTyping();
}`;
const FETCHED = `import { Client } from 'discord.js';
const client = new Client({ intents: [] });
export async function remind(id: string) {
  const channel = await client.channels.fetch(id);
  channel.send('Bump the server!');
}`;
const STARTER = `import type { ThreadChannel } from 'discord.js';
export class PhotosListener {
  public async run(thread: ThreadChannel) {
    const post = await thread.fetchStarterMessage();
    post?.reply('Thanks for posting!');
  }
}`;

createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (objects handed out by package objects)', rule as never, {
  valid: [
    // Handled.
    JOB_TYPED.replace('job.remove();', 'job.remove().catch(console.error);'),
    // `waiting` hands over the job's id, not the job; `global:` events hand over ids too.
    JOB_LISTENER.replace("queue.on('failed', (job, error)", "queue.on('waiting', (job, error)"),
    JOB_LISTENER.replace("queue.on('failed', (job, error)", "queue.on('global:failed', (job, error)"),
    // A queue of no known package hands over nothing known.
    JOB_LISTENER.replace("const Queue = require('bull');", 'class Queue { constructor(_n: string) {} on(_e: string, _f: unknown) {} }'),
    // `discard` only flags the job: no request.
    JOB_PROCESSOR.replace("job.log('started');", 'job.discard();'),
    // A manager's `fetch()` without an id, or with options, resolves to a collection.
    FETCHED.replace('client.channels.fetch(id)', 'client.channels.fetch()').replace("channel.send('Bump the server!');", 'channel.delete(id);'),
    FETCHED.replace('client.channels.fetch(id)', 'client.channels.fetch({ cache: false })').replace("channel.send('Bump the server!');", 'channel.delete(id);'),
    // An awaited call on something nothing ties to discord.js.
    THREAD.replace("import { Message } from 'discord.js';\n", '').replace('message: Message', 'message: { startThread(o: object): Promise<{ sendTyping(): void }> }'),
  ],
  invalid: [
    dropped(JOB_TYPED, 4, 3, 'job.remove();'),
    dropped(JOB_LISTENER, 5, 3, 'job.retry();'),
    dropped(JOB_PROCESSOR, 4, 3, "job.log('started');", true),
    dropped(THREAD, 4, 3, 'thread.sendTyping();', true),
    dropped(FETCHED, 5, 3, "channel.send('Bump the server!');", true),
    dropped(STARTER, 5, 5, "post?.reply('Thanks for posting!');", true),
  ],
});
