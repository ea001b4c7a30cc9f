// The extension manifest (client/package.json) against the server's settings schema and protocol.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { MANIFEST, expectedConfiguration } from '../../client/scripts/manifest';
import { Commands } from '../../server/src/protocol';
import { SETTINGS_SCHEMA } from '../../server/src/settings';

const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));

describe('client/package.json', () => {
  it('declares contributes.configuration exactly as the settings schema says', () => {
    // Out of date? node --import tsx client/scripts/manifest.ts
    assert.deepEqual(manifest.contributes.configuration, expectedConfiguration());
  });

  it('declares every server setting with type, default, scope and description', () => {
    for (const key of Object.keys(SETTINGS_SCHEMA)) {
      const property = manifest.contributes.configuration.properties[`asyncHazards.${key}`];
      assert.ok(property, `asyncHazards.${key} missing`);
      for (const field of ['type', 'default', 'scope', 'description']) assert.ok(field in property, `asyncHazards.${key}.${field}`);
    }
  });

  it('lists the server scan command and the client commands in the palette', () => {
    const listed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(listed, [Commands.scanWorkspace, 'asyncHazards.openRuleDoc', 'asyncHazards.restartServer', 'asyncHazards.showOutput'].sort());
  });

  it('pins @types/vscode to the minor of engines.vscode', () => {
    const engine = /^\^(\d+\.\d+)\.\d+$/.exec(manifest.engines.vscode);
    assert.ok(engine, `engines.vscode ${manifest.engines.vscode}`);
    assert.equal(manifest.devDependencies['@types/vscode'], `${engine[1]}.0`);
  });

  it('activates on the JavaScript and TypeScript languages and starts from the bundle', () => {
    assert.deepEqual(manifest.activationEvents.sort(),
      ['onLanguage:javascript', 'onLanguage:javascriptreact', 'onLanguage:typescript', 'onLanguage:typescriptreact']);
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  });
});
