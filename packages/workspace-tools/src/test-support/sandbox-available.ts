import { sandboxStatus } from '../command/sandbox/index.js';
import { systemToolAvailable } from './system-tools.js';

/**
 * Whether bubblewrap's sandbox runs here, for the tests that need it: where it cannot (not installed, not
 * Linux, a container that forbids its namespaces) they skip, saying why, or fail under
 * AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, as in CI.
 */
export async function sandboxAvailable(): Promise<boolean> {
  const status = await sandboxStatus();
  return systemToolAvailable('bubblewrap', status.available ? undefined : status.reason);
}
