export { AGENTLOOP_BIN, assertBuilt, CliWorkspace, DISPOSE_PLUGIN } from './cli-fixture.js';
export { MemoryOutput } from './memory-output.js';
export { REQUIRE_SYSTEM_TOOLS, systemToolAvailable } from './system-tools.js';
export { TmuxSession, tmuxAvailable } from './tmux-session.js';
export { VirtualTerminal } from './virtual-terminal.js';
