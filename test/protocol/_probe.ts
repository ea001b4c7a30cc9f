import * as fs from 'node:fs';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { createLinter } from '../../server/src/lint';
(async () => {
  const file = '/work/main/bench/.corpus/lsp/src/service1k.ts';
  const text = fs.readFileSync(file, 'utf8');
  const core = createLinter({ cwd: '/work/main/bench/.corpus/lsp', typeAware: 'auto', onNotice: (n) => console.log('notice', n.kind, (n as any).reason ?? '') });
  const linter = new Linter({ cwd: '/work/main/bench/.corpus/lsp' });
  const floorCfg = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, rules: { 'no-debugger': 'error' } }] as any;
  const t: Record<string, number[]> = {};
  for (let i = 0; i < 40; i++) {
    const txt = text.replace('// edit', '') + `\n// ${i}`;
    let s = performance.now(); linter.verify(txt, floorCfg, file); (t['floor'] ??= []).push(performance.now() - s);
    s = performance.now(); const r = await core.lintText(txt, file); (t['typed'] ??= []).push(performance.now() - s);
    if (i < 3) console.log('typed?', r.typeAware, r.messages.length, r.messages[0]?.message.slice(0, 200));
  }
  for (const [k, v] of Object.entries(t)) { v.splice(0, 10); v.sort((a, b) => a - b); console.log(k.padEnd(28), v[v.length >> 1]!.toFixed(1)); }
})();
