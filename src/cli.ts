#!/usr/bin/env node
// `billvend <command>` (operations.md "Command line"): `serve` (the default) and thin clients of the
// operator API. Each client prints JSON on stdout, a clear message on stderr and exits non-zero on
// failure.
import { run_cli } from './operator/cli-commands.js';

run_cli(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`billvend: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
