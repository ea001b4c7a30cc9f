import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester } from '../ruleTester';
import { dropped } from './orphanedCases';

// Functions of well-known packages that return a promise, told by the import a call resolves to:
// an HTTP request, a file removal, a child process. Their failures (a refused connection, a
// permission error, a command that exits non-zero) are rejections nobody handles when dropped.
const HANDLER = (body: string, imports: string): string => `${imports}
export async function notify(event: { id: string }) {
  ${body}
  return event.id;
}`;

const cases = {
  valid: [
    // Awaited, returned, handled.
    HANDLER("await axios.post('https://hooks.example.com', event);", "import axios from 'axios';"),
    HANDLER("axios.post('https://hooks.example.com', event).catch((e) => console.error(e));", "import axios from 'axios';"),
    // fs-extra with a callback answers through it; rimraf 3 takes one too.
    HANDLER("fse.remove('/tmp/' + event.id, (err) => console.error(err));", "import fse from 'fs-extra';"),
    HANDLER("rimraf('/tmp/' + event.id, (err) => console.error(err));", "import rimraf from 'rimraf';"),
    // Not a request: building an instance, reading a synchronous helper.
    HANDLER("axios.create({ baseURL: 'https://api.example.com' });", "import axios from 'axios';"),
    HANDLER("fse.removeSync('/tmp/' + event.id);", "import fse from 'fs-extra';"),
    // A same-named function of no known package.
    HANDLER("post('https://hooks.example.com', event);", "import { post } from './http';"),
    // Detached on purpose.
    HANDLER("void got.post('https://hooks.example.com', { json: event });", "import got from 'got';"),
  ],
  invalid: [
    dropped(HANDLER("axios.post('https://hooks.example.com', event);", "import axios from 'axios';"), 3, 3, "axios.post('https://hooks.example.com', event)", true),
    dropped(HANDLER("axios({ method: 'post', url: 'https://hooks.example.com', data: event });", "const axios = require('axios');"), 3, 3, "axios({ method: 'post', url: 'https://hooks.example.com', data: event })", true),
    dropped(HANDLER("fetch('https://example.com/ping/' + event.id);", "import fetch from 'node-fetch';"), 3, 3, "fetch('https://example.com/ping/' + event.id)", true),
    dropped(HANDLER("del(['/tmp/' + event.id]);", "import del from 'del';"), 3, 3, "del(['/tmp/' + event.id])", true),
    dropped(HANDLER("deleteAsync(['/tmp/' + event.id]);", "import { deleteAsync } from 'del';"), 3, 3, "deleteAsync(['/tmp/' + event.id])", true),
    dropped(HANDLER("fse.remove('/tmp/' + event.id);", "import fse from 'fs-extra';"), 3, 3, "fse.remove('/tmp/' + event.id)", true),
    dropped(HANDLER("outputJson('/tmp/last.json', event);", "const { outputJson } = require('fs-extra');"), 3, 3, "outputJson('/tmp/last.json', event)", true),
    dropped(HANDLER("execa('convert', [event.id]);", "import { execa } from 'execa';"), 3, 3, "execa('convert', [event.id])", true),
    dropped(HANDLER("rimraf('/tmp/' + event.id);", "import { rimraf } from 'rimraf';"), 3, 3, "rimraf('/tmp/' + event.id)", true),
  ],
};

createRuleTester().run<MessageId, Options>('no-orphaned-promise (package functions)', rule as never, {
  valid: cases.valid.map((code) => ({ code })),
  invalid: cases.invalid,
});
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (package functions, recommended)', rule as never, {
  valid: cases.valid.map((code) => ({ code })),
  invalid: cases.invalid,
});
