import type { McpServerStatus } from '@agentloop/mcp';
import { type Style, stripControls, wrapLine } from '../render/index.js';
import { describeAuth, loginHint } from './describe-auth.js';

function counted(count: number, noun: string): string[] {
  return count > 0 ? [`${count} ${noun}${count === 1 ? '' : 's'}`] : [];
}

/**
 * The servers for `agentloop mcp list` and `/mcp`: each with its state, transport and tools (by their names
 * on the server), and for a failed one why, with its stderr tail. Names and descriptions come from the
 * servers, so control characters are stripped.
 */
export function formatMcpServers(
  statuses: readonly McpServerStatus[],
  disabled: readonly string[],
  style: Style,
  /** The terminal's width, which the tool lists and errors are wrapped to between words; none for a pipe. */
  width = Number.POSITIVE_INFINITY,
  /** The time, for when a token expires. */
  now = Date.now(),
): string {
  if (statuses.length === 0 && disabled.length === 0) {
    return 'No MCP servers are configured. Add one as [mcp_servers.NAME] in a configuration file (`agentloop config path` shows where).\n';
  }
  const lines = [style.bold(`MCP servers (${statuses.length + disabled.length})`)];
  for (const status of statuses) {
    const state =
      status.state === 'ready' ? style.green('ready') : status.state === 'failed' ? style.red('failed') : status.state;
    const details = [
      status.transport,
      `${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}`,
      // Prompts and resources only where the server has some: most servers offer tools alone.
      ...counted(status.prompts?.length ?? 0, 'prompt'),
      ...counted(status.resources?.length ?? 0, 'resource'),
      ...counted(status.resourceTemplates?.length ?? 0, 'resource template'),
      ...(status.pid ? [`pid ${status.pid}`] : []),
      ...(status.restarts > 0 ? [`restarted ${status.restarts}×`] : []),
      ...(status.auth ? [describeAuth(status.auth, now)] : []),
    ];
    lines.push(`  ${style.bold(stripControls(status.name))}  ${state}  ${style.dim(details.join(', '))}`);
    if (status.tools.length > 0) {
      lines.push(wrapLine(`    ${status.tools.map((tool) => stripControls(tool.name)).join(', ')}`, width, '    '));
    }
    const error = status.auth?.state === 'login-needed' ? `${loginHint(status.name)}.` : status.error;
    if (error) {
      for (const line of error.trimEnd().split('\n'))
        lines.push(wrapLine(`    ${style.red(stripControls(line))}`, width, '    '));
    }
  }
  for (const name of disabled) lines.push(`  ${style.bold(stripControls(name))}  ${style.dim('disabled')}`);
  return `${lines.join('\n')}\n`;
}
