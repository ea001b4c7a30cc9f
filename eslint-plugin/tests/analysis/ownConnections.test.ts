import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Acquisition } from '../../src/analysis';
import { findManualAcquisitions, leaksOnlyRarely } from '../../src/analysis';
import { parse } from './parse';

function connection(code: string): { acquisition: Acquisition; sourceCode: ReturnType<typeof parse>['sourceCode'] } {
  const { sourceCode } = parse(code);
  const found = findManualAcquisitions(sourceCode).filter((a) => a.kind === 'connection');
  assert.equal(found.length, 1, `expected one connection, found ${found.length}`);
  return { acquisition: found[0] as Acquisition, sourceCode };
}

const ROUTE = `import { Client } from 'pg';
import express from 'express';
const app = express();
app.post('/runs/:id', async (req, res) => {
  GATE
  const client = new Client();
  await client.connect();
  await client.query('UPDATE runs SET seen = now() WHERE id = $1', [req.params.id]);
  await client.end();
  res.end();
});`;

describe('leaksOnlyRarely', () => {
  it('a connection on a route anyone can call leaks per failing request', () => {
    const { acquisition, sourceCode } = connection(ROUTE.replace('GATE', ''));
    assert.equal(leaksOnlyRarely(sourceCode, acquisition), false);
  });

  it('behind a 403 for who the client is, only trusted clients reach it', () => {
    const { acquisition, sourceCode } = connection(ROUTE.replace('GATE', `if (!req.user?.admin) { res.status(403).end(); return; }`));
    assert.equal(leaksOnlyRarely(sourceCode, acquisition), true);
  });

  it('in main() run once as the module starts, it leaks once per start', () => {
    const { acquisition, sourceCode } = connection(`import { Client } from 'pg';
async function main() {
  const client = new Client();
  await client.connect();
  await client.query('CREATE TABLE IF NOT EXISTS runs (id int)');
  await client.end();
}
main();`);
    assert.equal(leaksOnlyRarely(sourceCode, acquisition), true);
  });
});
