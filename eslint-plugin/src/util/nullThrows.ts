/** Asserts an invariant the rule logic depends on; a violation is a bug in the rule. */
export function nullThrows<T>(value: T | null | undefined, reason: string): T {
  if (value === null || value === undefined) {
    throw new Error(`async-hazards invariant violated: ${reason}`);
  }
  return value;
}
