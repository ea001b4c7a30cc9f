// Our plugin as oxlint loads it (`jsPlugins`). oxlint's rule context has no `parserServices`, and
// the rules ask for them with `ESLintUtils.getParserServices(context, true)`, which throws unless
// they come from @typescript-eslint/parser. This shim hands every rule empty parser services (no
// program, empty node maps) — what @typescript-eslint/parser gives without type information — and
// forwards everything else to oxlint's context untouched. Used only by bench/run.mjs, row (f).
import plugin from 'eslint-plugin-async-hazards';

const services = { program: null, esTreeNodeToTSNodeMap: new WeakMap(), tsNodeToESTreeNodeMap: new WeakMap() };

/** A read-through view of `target` with some properties replaced (oxlint's objects are frozen). */
function forward(target, overrides) {
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key in overrides) return overrides[key];
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      has: (_, key) => key in overrides || key in target,
    },
  );
}

const rules = {};
for (const [id, rule] of Object.entries(plugin.rules)) {
  rules[id] = {
    ...rule,
    create: (context) => rule.create(forward(context, { sourceCode: forward(context.sourceCode, { parserServices: services }) })),
  };
}

export default { meta: { name: 'async-hazards' }, rules };
