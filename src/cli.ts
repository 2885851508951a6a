#!/usr/bin/env node
// `billvend <command>` (docs/operations.md "Command line"): `serve` (the default) and thin clients of the
// operator API. Each client prints JSON on stdout, a clear message on stderr and exits non-zero on
// failure: 1 when the request failed or the operator API cannot be reached, 2 for a mistake in the
// command line. `--help`, `-h`, `help` and `--version` print and exit; only `serve` starts a server.
import { run_cli } from './operator/cli-commands.js';

// main.js is loaded only to serve: the operator commands start quickly without the server's modules.
const serve = async (argv: readonly string[]) => (await import('./main.js')).serve(argv);

run_cli(process.argv.slice(2), serve).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`billvend: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
