#!/usr/bin/env node
// The `agentloop` command. The code is in dist/cli/main.js (built with `npm run build`).
import { main } from '../dist/cli/main.js';

main().then(
  (status) => {
    process.exitCode = status;
    // Nothing the session started (a spinner, a cancelled request) may keep the command alive after it is done.
    setImmediate(() => process.exit(status)).unref();
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
