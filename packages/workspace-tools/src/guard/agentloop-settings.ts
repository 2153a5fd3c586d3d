import { WorkspaceToolError } from '../errors/index.js';

/**
 * True when a workspace-relative path (`/`-separated) is inside a `.agentloop` folder, at any depth: the
 * project's agentloop settings (`config.toml` can add MCP servers, plugins, a sandbox mode) and its system
 * prompt. An agent that wrote there could give its next start more rights than the user gave this one, so
 * the tools never write it, as they never write `.git`. Case is ignored, as for `.git`.
 */
export function isAgentloopSettings(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.toLowerCase() === '.agentloop');
}

/** Throws a WorkspaceToolError (`agentloop_settings`) when a write would touch `.agentloop`. */
export function refuseAgentloopSettings(path: string, relativePath: string): void {
  if (!isAgentloopSettings(relativePath)) return;
  throw new WorkspaceToolError(
    `"${path}" is inside .agentloop, the project's agentloop settings; the tools never change them (a change would take effect at the next start, with rights the user did not give). Tell the user what to change instead.`,
    'agentloop_settings',
  );
}
