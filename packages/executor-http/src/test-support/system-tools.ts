// The repository's one way for a test to need a system program: skip with a reason where it is missing,
// fail instead under AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, as in CI (scripts/system-tools.mjs).
export { REQUIRE_SYSTEM_TOOLS, systemToolAvailable } from '../../../../scripts/system-tools.mjs';
