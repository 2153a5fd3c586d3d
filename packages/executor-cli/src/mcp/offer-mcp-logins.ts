import type { ToolRegistry } from '@agentloop/core';
import type { Style, TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/index.js';
import { mcpConfigOf, mcpServersOf } from './mcp-session-plugin.js';
import { mcpTokenFile } from './mcp-token-file.js';
import { openBrowser } from './open-browser.js';

/** What offering the logins needs from the session. */
export interface OfferMcpLoginsOptions {
  /** Asks a question on the prompt's line; undefined when the user ended the input or pressed Ctrl-C. */
  ask(question: string): Promise<string | undefined>;
  output: TerminalOutput;
  style: Style;
  environment: Record<string, string | undefined>;
  /** Opens the authorization URL; default the browser. */
  openUrl?: (url: string) => Promise<boolean>;
  /** Ends a login that waits for the browser (Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * In an interactive session, asks once for each MCP server that needs an OAuth login whether to log in
 * now, instead of leaving its tools missing: on yes, runs the login (the browser, or client credentials)
 * and starts the server again. A failed login is said in one line and the session goes on.
 */
export async function offerMcpLogins(registry: ToolRegistry, options: OfferMcpLoginsOptions): Promise<void> {
  const servers = mcpServersOf(registry);
  const config = mcpConfigOf(registry);
  if (!servers || !config) return;
  const waiting = servers.status().filter((status) => status.auth?.state === 'login-needed');
  if (waiting.length === 0) return;
  const { FileTokenStore, loginMcpServer } = await import('@agentloop/mcp');
  const { output, style } = options;
  const openUrl = options.openUrl ?? ((url: string) => openBrowser(url, options.environment));
  for (const { name } of waiting) {
    const server = config[name];
    if (!server || !('url' in server)) continue;
    const answer = await options.ask(`Log in to MCP server "${stripControls(name)}" now? [Y/n] `);
    if (answer === undefined || /^\s*n/i.test(answer)) continue;
    try {
      await loginMcpServer({
        name,
        config: server,
        store: new FileTokenStore(mcpTokenFile()),
        ...(options.signal ? { signal: options.signal } : {}),
        openAuthorizationUrl: async (url) => {
          const opened = await openUrl(url.href);
          output.write(
            `${opened ? 'Opened your browser; if it did not open, go to' : 'Open this address in a browser'}:\n  ${url.href}\n${style.dim('Waiting for the browser to come back (Ctrl-C stops)…')}\n`,
          );
        },
      });
      const status = await servers.reconnect(name);
      output.write(
        status.state === 'ready'
          ? `${style.green('✓')} Logged in to MCP server "${stripControls(name)}"; its ${status.tools.length} tools are ready.\n`
          : `${style.yellow('⚠')} Logged in, but MCP server "${stripControls(name)}" did not start: ${stripControls(status.error ?? 'no reason given')}\n`,
      );
    } catch (error) {
      output.write(`${style.red('✗')} ${stripControls((error as Error).message)}\n`);
    }
  }
}
