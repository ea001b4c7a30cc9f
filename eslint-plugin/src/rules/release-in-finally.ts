import { createRule } from '../util/createRule';

// Registered so the plugin's shape is complete while the rule is written; it reports nothing yet.
export default createRule<[], never>({
  name: 'release-in-finally',
  meta: {
    type: 'problem',
    docs: { description: 'Pending: release-in-finally', recommended: true, requiresTypeChecking: false },
    messages: {},
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
