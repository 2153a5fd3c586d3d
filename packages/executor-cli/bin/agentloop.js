#!/usr/bin/env node
// The `agentloop` command. The code is in dist/cli/main.js, bundled into dist/command/ so that it starts
// by reading a few files instead of one per module (`npm run build` does both; scripts/bundle-command.mjs).
import { crashReport } from '../dist/command/crash-report.js';
import { main } from '../dist/command/main.js';

// `agentloop run --json | head -1`: once the reader has gone, what is left to write has nowhere to go. The
// run ends as it would have, with its own exit status, instead of dying on an unhandled 'error' event.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

main().then(
  (status) => {
    process.exitCode = status;
    // Nothing the session started (a spinner, a cancelled request) may keep the command alive after it is done.
    setImmediate(() => process.exit(status)).unref();
  },
  (error) => {
    process.stderr.write(crashReport(error, process.argv));
    process.exit(1);
  },
);
