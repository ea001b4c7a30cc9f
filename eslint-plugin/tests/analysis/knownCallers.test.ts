import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { FunctionNode } from '../../src/analysis';
import { isFunctionNode, isStartupPhase, isUnreachedExport, knownCallers, moduleSourceCode, walk } from '../../src/analysis';
import { importsOf, resetProject } from '../../src/project';
import { fixture } from '../ruleTester';

// Who calls an exported function, across the files of its package (fixtures/startup).
const at = (name: string): string => fixture(`startup/src/${name}`);

/** The first function and the first call of a module on disk (`fixtures/startup/<name>` by default). */
function exported(name: string, file = at(name)): { sourceCode: NonNullable<ReturnType<typeof moduleSourceCode>>; fn: FunctionNode; read: TSESTree.Node } {
  const sourceCode = moduleSourceCode(file);
  assert.ok(sourceCode);
  let fn: FunctionNode | null = null;
  let read: TSESTree.Node | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (!fn && isFunctionNode(node)) fn = node;
    if (!read && node.type === AST_NODE_TYPES.CallExpression) read = node;
    return true;
  });
  assert.ok(fn && read);
  return { sourceCode, fn, read };
}

beforeEach(() => resetProject());

describe('knownCallers', () => {
  it('finds named, default, require and dynamic-import calls in the importing files', () => {
    const server = exported('server.js');
    assert.deepEqual(knownCallers(server.sourceCode, server.fn)?.map((s) => s.call.loc.start.line), [7]);
    const late = exported('late.js');
    assert.equal(knownCallers(late.sourceCode, late.fn)?.length, 1);
    const legacy = exported('legacy.js');
    assert.equal(knownCallers(legacy.sourceCode, legacy.fn)?.length, 1);
  });
  it('a function called from two files has both calls', () => {
    const shared = exported('shared.js');
    assert.equal(knownCallers(shared.sourceCode, shared.fn)?.length, 2);
  });
  it('is null for a function handed on as a value, or that nothing imports', () => {
    const passed = exported('passed.js');
    assert.equal(knownCallers(passed.sourceCode, passed.fn), null);
    const orphan = exported('orphanExport.js');
    assert.equal(knownCallers(orphan.sourceCode, orphan.fn), null);
  });
});

describe('knownCallers through barrels', () => {
  it('follows `export * from` and `export { a as b } from` to the barrel\'s importers', () => {
    const load = exported('pages/load.js');
    const sites = knownCallers(load.sourceCode, load.fn);
    assert.deepEqual(sites?.map((s) => [s.sourceCode.getText(s.call), s.call.loc.start.line]), [['loadPage()', 3], ['readPage()', 4]]);
  });
  it('is null through `export * as ns from`, whose importers hold a namespace', () => {
    const tpl = exported('pages/tpl.js');
    assert.equal(knownCallers(tpl.sourceCode, tpl.fn), null);
  });
});

describe('knownCallers of static methods and unexported functions', () => {
  it("a class's static method: `C.m()` in importers, `this.m()` and `C.m()` in its own static methods", () => {
    const db = exported('db.js');
    assert.deepEqual(knownCallers(db.sourceCode, db.fn)?.map((s) => s.call.loc.start.line), [15]);
    let migrate: FunctionNode | null = null;
    walk(db.sourceCode.ast, db.sourceCode.visitorKeys, (node) => {
      if (node.type === AST_NODE_TYPES.MethodDefinition && node.key.type === AST_NODE_TYPES.Identifier && node.key.name === 'migrate' && isFunctionNode(node.value)) migrate = node.value;
      return true;
    });
    assert.ok(migrate);
    assert.deepEqual(knownCallers(db.sourceCode, migrate)?.map((s) => s.call.loc.start.line).sort(), [5, 9]);
  });
  it('is null for a class handed on as a value', () => {
    const registry = exported('registry.js');
    assert.equal(knownCallers(registry.sourceCode, registry.fn), null);
  });
  it('a function the file does not export: its own calls', () => {
    const local = exported('local.js');
    assert.deepEqual(knownCallers(local.sourceCode, local.fn)?.map((s) => s.call.loc.start.line), [4]);
  });
});

/** The function of `name`'s method `method` (a constructor is `constructor`). */
function methodIn(name: string, method: string): { sourceCode: NonNullable<ReturnType<typeof moduleSourceCode>>; fn: FunctionNode } {
  const sourceCode = moduleSourceCode(at(name));
  assert.ok(sourceCode);
  let fn: FunctionNode | null = null;
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.MethodDefinition && node.key.type === AST_NODE_TYPES.Identifier && node.key.name === method && isFunctionNode(node.value)) fn = node.value;
    return true;
  });
  assert.ok(fn, method);
  return { sourceCode, fn };
}

describe('knownCallers of constructors and instance methods', () => {
  it('a constructor is called by `new C()` in the importers', () => {
    const bot = methodIn('bot.js', 'constructor');
    const sites = knownCallers(bot.sourceCode, bot.fn);
    assert.deepEqual(sites?.map((s) => [s.call.type, s.call.loc.start.line]), [[AST_NODE_TYPES.NewExpression, 18]]);
  });
  it("an instance method by `this.m()` in its class's own methods", () => {
    const init = methodIn('bot.js', 'init');
    assert.deepEqual(knownCallers(init.sourceCode, init.fn)?.map((s) => s.call.loc.start.line), [6]);
  });
  it('an instance method by `x.m()` in an importer, on a variable that only ever holds `new C()`', () => {
    const refresh = methodIn('cache.js', 'refresh');
    const sites = knownCallers(refresh.sourceCode, refresh.fn);
    assert.deepEqual(sites?.map((s) => [s.sourceCode.getText(s.call), s.call.loc.start.line]), [['this.refresh()', 5], ['cache.refresh()', 15]]);
  });
  it("through a field of the importer's own class that only ever holds `new C()`", () => {
    const init = methodIn('push.js', 'init');
    assert.deepEqual(knownCallers(init.sourceCode, init.fn)?.map((s) => s.sourceCode.getText(s.call)), ['this.push.init()']);
    // Two importers, two fields: hub.js (assigned under a guard) and feedRoute.js (in the constructor).
    const refresh = methodIn('feed.js', 'refresh');
    assert.deepEqual(knownCallers(refresh.sourceCode, refresh.fn)?.map((s) => s.sourceCode.getText(s.call)).sort(), ['this.feed.refresh()', 'this.feed.refresh()']);
  });
  it('the same whichever file was read first: importers come from the package, not from what was linted before', () => {
    const callers = (): string[] | undefined => {
      const init = methodIn('push.js', 'init');
      return knownCallers(init.sourceCode, init.fn)?.map((s) => `${s.sourceCode.getText(s.call)}:${s.call.loc.start.line}`);
    };
    const cold = callers();
    resetProject();
    // What a lint of the importers first would have recorded: their imports, in the reverse index.
    for (const name of ['hubMain.js', 'hub.js', 'feedRoute.js']) assert.ok(importsOf(at(name)).length > 0, name);
    assert.deepEqual(callers(), cold);
    assert.deepEqual(cold, ['this.push.init():7']);
  });
  it('is null for an instance handed on (exported), which files that never import its class may call', () => {
    const warm = methodIn('pool.js', 'warm');
    assert.equal(knownCallers(warm.sourceCode, warm.fn), null);
  });
});

describe('isStartupPhase across files', () => {
  it('startup when every caller is; serving when a route or the code after listen calls it', () => {
    for (const name of ['server.js', 'run.js', 'late.js', 'legacy.js', 'keys.js', 'db.js', 'local.js']) {
      const { sourceCode, fn, read } = exported(name);
      assert.equal(isStartupPhase(sourceCode, fn, read), true, name);
    }
    for (const name of ['handle.js', 'shared.js', 'later.js', 'passed.js', 'orphanExport.js', 'store.js', 'registry.js', 'localRoute.js']) {
      const { sourceCode, fn, read } = exported(name);
      assert.equal(isStartupPhase(sourceCode, fn, read), false, name);
    }
  });
  it("a constructor's method is startup when every `new` of its class is", () => {
    const phaseOf = (name: string, method: string): boolean => {
      const { sourceCode, fn } = methodIn(name, method);
      return isStartupPhase(sourceCode, fn, fn.body as TSESTree.Node);
    };
    assert.equal(phaseOf('bot.js', 'init'), true);
    assert.equal(phaseOf('session.js', 'load'), false);
    assert.equal(phaseOf('cache.js', 'refresh'), false);
    assert.equal(phaseOf('push.js', 'init'), true);
    assert.equal(phaseOf('feed.js', 'refresh'), false);
    assert.equal(phaseOf('pool.js', 'warm'), false);
  });
});

// Exports no importer names (fixtures/unreached-exports): routes/users.js reads only some members
// of each tool module.
describe('isUnreachedExport', () => {
  const tool = (file: string, name: string): { sourceCode: NonNullable<ReturnType<typeof moduleSourceCode>>; fn: FunctionNode } => {
    const sourceCode = moduleSourceCode(fixture(`unreached-exports/src/tools/${file}`));
    assert.ok(sourceCode);
    let fn: FunctionNode | null = null;
    walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
      const parent = node.parent;
      const named = parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name
        : node.type === AST_NODE_TYPES.FunctionDeclaration ? node.id?.name
        : parent?.type === AST_NODE_TYPES.Property && parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
      if (!fn && isFunctionNode(node) && named === name) fn = node;
      return true;
    });
    assert.ok(fn, name);
    return { sourceCode, fn };
  };
  const unreached = (file: string, name: string): boolean => {
    const { sourceCode, fn } = tool(file, name);
    return isUnreachedExport(sourceCode, fn);
  };
  it('is true for a member and a destructured name no importer reads', () => {
    assert.equal(unreached('passwords.js', 'randomPassword'), true);
    assert.equal(unreached('tokens.js', 'mint'), true);
  });
  it('is false for what an importer calls, and when a use could be unseen', () => {
    assert.equal(unreached('passwords.js', 'checkPassword'), false);
    assert.equal(unreached('tokens.js', 'verify'), false);
    // The module object is exported again; a sibling method calls `this.hash()`; nothing imports loaded.js.
    assert.equal(unreached('keys.js', 'derive'), false);
    assert.equal(unreached('own.js', 'hash'), false);
    assert.equal(unreached('loaded.js', 'seal'), false);
  });
  it('gives the same answer whether or not the importer was parsed first', () => {
    assert.ok(moduleSourceCode(fixture('unreached-exports/src/routes/users.js')));
    const first = unreached('passwords.js', 'randomPassword');
    resetProject();
    assert.equal(unreached('passwords.js', 'randomPassword'), first);
  });
});

describe('knownCallers of a file loaded by convention', () => {
  const first = (name: string): ReturnType<typeof exported> => exported(name, fixture(`convention-loader/src/${name}`));
  it("a bootstrap.js default is called where the loader calls `bootstrap.default(…)`; a module kept in a list has no known caller", () => {
    const boot = first('modules/locale/bootstrap.js');
    assert.deepEqual(knownCallers(boot.sourceCode, boot.fn)?.map((s) => s.call.loc.start.line), [11]);
    const hook = first('modules/locale/hooks.js');
    assert.equal(knownCallers(hook.sourceCode, hook.fn), null);
  });
  it('startup whichever file is asked first: the loaded default, or the function only it calls', () => {
    const order = (names: readonly string[]): boolean[] => {
      resetProject();
      const answers = new Map(names.map((name) => {
        const { sourceCode, fn, read } = first(name);
        return [name, isStartupPhase(sourceCode, fn, read)] as const;
      }));
      return ['lib/catalog.js', 'modules/catalog/bootstrap.js', 'modules/catalog/plugin.js'].map((name) => answers.get(name) as boolean);
    };
    const forward = order(['lib/catalog.js', 'modules/catalog/bootstrap.js', 'modules/catalog/plugin.js']);
    assert.deepEqual(forward, [true, true, false]);
    assert.deepEqual(order(['modules/catalog/plugin.js', 'modules/catalog/bootstrap.js', 'lib/catalog.js']), forward);
  });
});
