import asyncHazards from 'eslint-plugin-async-hazards';

export default [
  asyncHazards.configs.recommended,
];
