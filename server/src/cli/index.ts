// Entry of the CLI bundle (server/dist/cli.js), loaded by bin/async-hazards.js.
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    // -1: the language server took over the process (--stdio) and decides when it ends.
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`async-hazards: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
