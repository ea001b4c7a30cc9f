// Keeps `contributes.configuration` in client/package.json equal to the server's one settings
// schema (server/src/settings.ts) plus the settings only the client reads.
//   node --import tsx client/scripts/manifest.ts          rewrite client/package.json
//   node --import tsx client/scripts/manifest.ts --check  exit 1 when it is out of date
// test/e2e/manifest.test.ts runs the same comparison in `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { manifestConfiguration } from '../../server/src/settings';

export const MANIFEST = path.join(__dirname, '..', 'package.json');

/** Settings the language client itself reads (vscode-languageclient's `<id>.trace.server`). */
const CLIENT_SETTINGS = {
  'asyncHazards.trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    description: 'Log the messages between VS Code and the Async Hazards server to the output channel.',
    scope: 'window',
  },
};

export function expectedConfiguration(): { title: string; properties: Record<string, unknown> } {
  const fromServer = manifestConfiguration();
  // Through JSON, so the comparison sees exactly what the manifest file can hold.
  return JSON.parse(JSON.stringify({ title: fromServer.title, properties: { ...fromServer.properties, ...CLIENT_SETTINGS } }));
}

function main(): void {
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  const expected = expectedConfiguration();
  const same = JSON.stringify(manifest.contributes.configuration) === JSON.stringify(expected);
  if (process.argv.includes('--check')) {
    if (!same) {
      console.error('client/package.json contributes.configuration is out of date: run node --import tsx client/scripts/manifest.ts');
      process.exit(1);
    }
    return;
  }
  if (same) return;
  manifest.contributes.configuration = expected;
  fs.writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log('updated contributes.configuration in client/package.json');
}

if (require.main === module) main();
