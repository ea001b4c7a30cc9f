// The one bundler script. Each target is one bundle plus the files that must sit next to it.
//   node esbuild.mjs                 build every target (development: source maps)
//   node esbuild.mjs --production    minified, no source maps
//   node esbuild.mjs --watch         rebuild on change
//   node esbuild.mjs server          build only the named targets
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const production = args.includes('--production');
const watch = args.includes('--watch');
const only = args.filter((a) => !a.startsWith('--'));

const typescriptLib = path.join(path.dirname(require.resolve('typescript/package.json')), 'lib');
const pluginDocs = path.join(root, 'eslint-plugin', 'docs', 'rules');

/** TypeScript finds its default libraries next to the executing file, which is the bundle. */
function typescriptLibFiles(outdir) {
  return fs
    .readdirSync(typescriptLib)
    .filter((name) => /^lib\..*\.d\.ts$/.test(name))
    .map((name) => ({ from: path.join(typescriptLib, name), to: path.join(outdir, name) }));
}

/**
 * jiti, which ESLint imports at run time to load `eslint.config.ts` on Node versions without
 * TypeScript stripping (VS Code's extension host runs Node 20). It loads its Babel part through
 * `createRequire(import.meta.url)`, which a CommonJS bundle cannot follow, so the package's
 * run-time files sit next to the bundle in `node_modules/jiti`, where `import('jiti')` finds them.
 */
function jitiFiles(outdir) {
  const jitiRoot = path.dirname(require.resolve('jiti/package.json'));
  return ['package.json', 'LICENSE', 'lib/jiti.mjs', 'lib/jiti.cjs', 'dist/jiti.cjs', 'dist/babel.cjs'].map((file) => ({
    from: path.join(jitiRoot, file),
    to: path.join(outdir, 'node_modules', 'jiti', file),
  }));
}

/**
 * oxc's parser, which the language server's syntactic path loads at run time with `require`: its
 * JavaScript and the native bindings installed here (this machine's platform), next to the bundle
 * in `node_modules`. On any other platform no binding loads and the server parses with
 * @typescript-eslint/parser, as it does when oxc is missing altogether.
 */
function oxcFiles(outdir) {
  const oxcRoot = path.dirname(require.resolve('oxc-parser/package.json'));
  const files = ['package.json', 'LICENSE', ...listFiles(path.join(oxcRoot, 'src-js')).map((f) => path.join('src-js', f)).filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))];
  const out = files.map((file) => ({ from: path.join(oxcRoot, file), to: path.join(outdir, 'node_modules', 'oxc-parser', file) }));
  const scope = path.join(path.dirname(oxcRoot), '@oxc-parser');
  const bindings = fs.existsSync(scope) ? fs.readdirSync(scope).filter((name) => name.startsWith('binding-')) : [];
  for (const binding of bindings) {
    for (const file of fs.readdirSync(path.join(scope, binding)).filter((f) => f === 'package.json' || f.endsWith('.node'))) {
      out.push({ from: path.join(scope, binding, file), to: path.join(outdir, 'node_modules', '@oxc-parser', binding, file) });
    }
  }
  return out;
}

function listFiles(dir) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** The rule docs, for "Show documentation" and hover, readable offline. */
function ruleDocs(outdir) {
  if (!fs.existsSync(pluginDocs)) return [];
  return fs
    .readdirSync(pluginDocs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ from: path.join(pluginDocs, name), to: path.join(outdir, 'docs', name) }));
}

/**
 * ESLint's `FlatConfigArray`, which the server hands `Linter#verify` ready-made (server/src/lint.ts)
 * but the package does not export: this path resolves to ESLint's own file, so the bundle keeps
 * one copy of the class, the one its bundled Linter uses.
 */
const eslintConfigArray = {
  name: 'eslint-config-array',
  setup(build) {
    const file = path.join(path.dirname(require.resolve('eslint/package.json')), 'lib', 'config', 'flat-config-array.js');
    build.onResolve({ filter: /^eslint\/lib\/config\/flat-config-array$/ }, () => ({ path: file }));
  },
};

const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: production ? false : 'linked',
  // No keepNames: it wraps every function expression in a naming call, which made the bundled
  // TypeScript parser (closures per node) about 2× slower.
  logLevel: 'warning',
  // ESLint's TypeScript config loader, imported at run time from node_modules/jiti next to the
  // bundle (copied there by jitiFiles); oxc's parser, ESM with a native binding (oxcFiles).
  external: ['jiti', 'jiti/*', 'oxc-parser', 'oxc-parser/*'],
  plugins: [eslintConfigArray],
};

/**
 * The bundles. Add a target here (the extension's client bundle and its copy of the server go
 * into client/dist); `copy` lists files to place next to the bundle after each build.
 */
export const targets = [
  {
    name: 'server',
    options: {
      ...nodeBundle,
      entryPoints: [path.join(root, 'server/src/server.ts')],
      outfile: path.join(root, 'server/dist/server.js'),
    },
    copy: () => [
      ...typescriptLibFiles(path.join(root, 'server/dist')),
      ...ruleDocs(path.join(root, 'server/dist')),
      ...jitiFiles(path.join(root, 'server/dist')),
      ...oxcFiles(path.join(root, 'server/dist')),
    ],
  },
  {
    // The CLI: its own bundle next to the server's; `--stdio` loads ./server.js from the same folder.
    // Its lint worker threads start from the second bundle, cli-worker.js, in the same folder.
    name: 'cli',
    options: {
      ...nodeBundle,
      entryPoints: {
        cli: path.join(root, 'server/src/cli/index.ts'),
        'cli-worker': path.join(root, 'server/src/cli/worker.ts'),
      },
      outdir: path.join(root, 'server/dist'),
    },
    copy: () => [],
  },
  {
    name: 'client',
    options: {
      ...nodeBundle,
      entryPoints: [path.join(root, 'client/src/extension.ts')],
      outfile: path.join(root, 'client/dist/extension.js'),
      external: [...nodeBundle.external, 'vscode'],
    },
    // The extension carries its own copy of the server bundle (built by the target above), with the
    // TypeScript lib files next to it and the rule docs, so it works in a folder without node_modules.
    copy: () => [
      { from: path.join(root, 'server/dist/server.js'), to: path.join(root, 'client/dist/server.js') },
      ...typescriptLibFiles(path.join(root, 'client/dist')),
      ...ruleDocs(path.join(root, 'client/dist')),
      ...jitiFiles(path.join(root, 'client/dist')),
      ...oxcFiles(path.join(root, 'client/dist')),
    ],
  },
];

function copyFiles(target) {
  for (const { from, to } of target.copy?.() ?? []) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  }
}

const copyPlugin = (target) => ({
  name: `copy-${target.name}`,
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) copyFiles(target);
    });
  },
});

async function main() {
  const selected = only.length ? targets.filter((t) => only.includes(t.name)) : targets;
  if (selected.length === 0) throw new Error(`no target named ${only.join(', ')}; known: ${targets.map((t) => t.name).join(', ')}`);
  for (const target of selected) {
    const options = { ...target.options, plugins: [...(target.options.plugins ?? []), copyPlugin(target)] };
    if (watch) {
      const context = await esbuild.context(options);
      await context.watch();
      process.stdout.write(`watching ${target.name}\n`);
    } else {
      const started = Date.now();
      await esbuild.build(options);
      process.stdout.write(`built ${target.name} in ${Date.now() - started} ms\n`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
