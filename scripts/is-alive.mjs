// Whether a process still runs, for the packages' tests that check no child outlives its owner (an MCP
// server after its session, a command after its tool call); each re-exports it from its test support.

/**
 * True while a process with this id runs (signal 0 checks it exists without touching it). A zombie counts
 * as running until its parent reaps it.
 *
 * @param {number} pid
 * @returns {boolean}
 */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
