import { createRule } from '../util/createRule';

// Registered so the plugin's shape is complete while the rule is written; it reports nothing yet.
export default createRule<[], never>({
  name: 'no-unbounded-fan-out',
  meta: {
    type: 'problem',
    docs: { description: 'Pending: no-unbounded-fan-out', recommended: true, requiresTypeChecking: false },
    messages: {},
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
