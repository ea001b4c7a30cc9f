// Test cases shared by the no-orphaned-promise test files of package promises.

/** A dropped call at `line`:`column`, with the suggestions to void it and, in async code, await it. */
export function dropped(code: string, line: number, column: number, call: string, awaitable = false) {
  const prefixed = (word: string): string => code.replace(call, `${word} ${call}`);
  return {
    code,
    errors: [{
      messageId: 'orphanedPromise' as const, line, column,
      suggestions: [
        ...(awaitable ? [{ messageId: 'addAwait' as const, output: prefixed('await') }] : []),
        { messageId: 'addVoid' as const, output: prefixed('void') },
      ],
    }],
  };
}
