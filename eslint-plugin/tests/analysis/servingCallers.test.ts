import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { isFunctionNode, matchBlockingCall, moduleSourceCode, servedBlocking, servingCall, sourceFileOf, walk } from '../../src/analysis';
import { resetProject } from '../../src/project';
import { fixture } from '../ruleTester';

// Who runs a synchronous helper while the process serves, from another module (fixtures/served-helpers).
const at = (name: string) => {
  const sourceCode = moduleSourceCode(fixture(`served-helpers/src/${name}`));
  assert.ok(sourceCode);
  return sourceCode;
};

/** The function declared or defined under `name` (a method's key, a function's id). */
function named(sourceCode: ReturnType<typeof at>, name: string): FunctionNode {
  let found: FunctionNode | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.MethodDefinition && node.key.type === AST_NODE_TYPES.Identifier && node.key.name === name && isFunctionNode(node.value)) found = node.value;
    if (node.type === AST_NODE_TYPES.FunctionDeclaration && node.id?.name === name) found = node;
    return true;
  });
  assert.ok(found, name);
  return found;
}

function callsIn(sourceCode: ReturnType<typeof at>, fn: FunctionNode): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  walk(fn.body, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) calls.push(node);
    return true;
  });
  return calls;
}

const options = { blockingCalls: [], allow: [], randomBytesThreshold: 1024 };

beforeEach(() => resetProject());

describe('servingCall', () => {
  it("follows a class's `this.m()` up to the route handler in another file", () => {
    const disk = at('services/disk.ts');
    const site = servingCall(disk, named(disk, 'sizeOf'));
    assert.ok(site);
    assert.equal(sourceFileOf(site.sourceCode), fixture('served-helpers/src/routes/diskRoutes.ts'));
    assert.equal(site.call.loc.start.line, 7);
    assert.equal(site.registration?.framework, 'express');
  });
  it("finds an importer's async command method", () => {
    const reports = at('reports.js');
    const site = servingCall(reports, named(reports, 'buildReport'));
    assert.equal(site?.call.loc.start.line, 6);
    assert.equal(site?.registration, null);
  });
  it('is null for a helper only startup calls, and for one whose serving caller is in its own file', () => {
    const disk = at('services/disk.ts');
    assert.equal(servingCall(disk, named(disk, 'loadLimits')), null);
    const reports = at('reports.js');
    assert.equal(servingCall(reports, named(reports, 'localSummary')), null);
  });
});

describe('servedBlocking', () => {
  it('keeps a single metadata call quiet when asked, and reports it otherwise', () => {
    const disk = at('services/disk.ts');
    const subject = { filename: fixture('served-helpers/src/services/disk.ts'), sourceCode: disk };
    const [existsSync] = callsIn(disk, named(disk, 'sizeOf'));
    assert.ok(existsSync);
    const found = matchBlockingCall(disk, existsSync, options);
    assert.ok(found);
    assert.equal(servedBlocking(disk, found, subject, true), null);
    assert.equal(servedBlocking(disk, found, subject, false)?.site?.call.loc.start.line, 7);
  });
  it('is null for blocking I/O whose helper only startup runs', () => {
    const disk = at('services/disk.ts');
    const subject = { filename: fixture('served-helpers/src/services/disk.ts'), sourceCode: disk };
    const [read] = callsIn(disk, named(disk, 'loadLimits'));
    assert.ok(read);
    const found = matchBlockingCall(disk, read, options);
    assert.ok(found);
    assert.equal(servedBlocking(disk, found, subject, false), null);
  });
});
