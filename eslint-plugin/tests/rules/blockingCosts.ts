// What no-blocking-in-async says a blocking call costs, per context it was judged in: written
// out here, not imported from the rule, so a change to the wording has to change the tests too.

/** Long-lived code that may run while it serves. */
export const SERVING = 'every other request, timer and health check in this process waits until it returns';
/** Long-lived code before it serves, with no work of its own found beside it. */
export const STARTUP = 'the process starts serving that much later; nothing else waits on it yet, unless startup has already started other work';
/** One-shot code with no work of its own found beside it. */
export const ONE_SHOT = 'the script waits until it returns, and so does any other work the script has in flight; nothing outside the script waits';
/** Text linted without a file. */
export const UNKNOWN = 'whatever else this process has in flight waits until it returns (in a server, every other request, timer and health check)';

export const startupBeside = (line: number): string => `the process starts serving that much later, and the work started beside it at line ${line} waits until it returns`;
export const startupFanOut = (line: number): string => `the process starts serving that much later, and the other runs of the fan-out at line ${line} wait until it returns`;
export const oneShotBeside = (line: number): string => `the script waits until it returns, and so does the work it started beside it at line ${line}`;
export const oneShotFanOut = (line: number): string => `the script waits until it returns, and so do the other runs of its fan-out at line ${line}`;
