import type { MessageId, Options } from '../../src/rules/no-orphaned-promise';
import rule from '../../src/rules/no-orphaned-promise';
import { createRecommendedRuleTester, createRuleTester, fixture } from '../ruleTester';

// An async `Promise` executor whose promise never settles costs what awaiting it forever costs
// where it runs (fixtures/roles): a server stays up, so its callers wait forever; its startup never
// gets to serve; a one-shot script's event loop empties and it ends with the awaiting code never resumed.
const MIGRATE = fixture('roles/scripts/migrate.js');
const SERVER = fixture('roles/src/server.js');

const EXPORTED = "exports.load = () => new Promise(async (resolve) => { resolve(await fetch('https://example.com')); });";
const AT_START = `async function main() {
  const config = await new Promise(async (resolve) => { resolve(await fetch('https://example.com')); });
  app.listen(config.port);
}
void main();`;

const SERVING = 'its callers wait forever';
const STARTUP = 'the startup code awaiting it never resumes, and the process never gets to serve';
const ONE_SHOT = 'the code awaiting it never resumes, and the script ends without finishing once nothing else keeps it running';
const UNKNOWN = 'the code awaiting it never resumes';
const exported = (cost: string) => [{ messageId: 'asyncExecutor' as const, line: 1, column: 34, data: { cost } }];
const atStart = (cost: string) => [{ messageId: 'asyncExecutor' as const, line: 2, column: 36, data: { cost } }];

const cases = [
  { code: EXPORTED, filename: SERVER, errors: exported(SERVING) },
  { code: EXPORTED, filename: MIGRATE, errors: exported(ONE_SHOT) },
  { code: EXPORTED, filename: '<input>', errors: exported(UNKNOWN) },
  { code: AT_START, filename: SERVER, errors: atStart(STARTUP) },
  { code: AT_START, filename: MIGRATE, errors: atStart(ONE_SHOT) },
  { code: AT_START, filename: '<input>', errors: atStart(UNKNOWN) },
];

// Both presets report it everywhere: only the words change with the context.
createRuleTester().run<MessageId, Options>('no-orphaned-promise (strict: what an executor that never settles costs where it runs)', rule as never, { valid: [], invalid: cases });
createRecommendedRuleTester().run<MessageId, Options>('no-orphaned-promise (recommended: what an executor that never settles costs where it runs)', rule as never, { valid: [], invalid: cases });
