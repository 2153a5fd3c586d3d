import {
  FileTokenStore,
  loginMcpServer,
  logoutMcpServer,
  type McpHttpServerConfig,
  McpServerError,
} from '@agentloop/mcp';
import { ConfigError, loadConfig } from '../config/index.js';
import { toMcpServersConfig } from '../config/mcp-servers-config.js';
import type { Style, TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import { describeAuth } from './describe-auth.js';
import { mcpTokenFile } from './mcp-token-file.js';
import { openBrowser } from './open-browser.js';

/** Where `agentloop mcp login` and `logout` read and write; injectable for tests. */
export interface McpLoginOptions {
  cwd: string;
  /** The server's name in `[mcp_servers]`. */
  name: string;
  /** Scopes to ask for beside the configured ones (`--scopes a,b`). */
  scopes?: readonly string[];
  userConfigFile?: string;
  environment?: Record<string, string | undefined>;
  output: TerminalOutput;
  errorOutput: TerminalOutput;
  style: Style;
  /** Opens the authorization URL; default the browser (`$BROWSER` or the platform's opener). */
  openUrl?: (url: string) => Promise<boolean>;
}

/**
 * `agentloop mcp login NAME`: logs in to an HTTP server through OAuth. A browser login opens the
 * authorization URL (and prints it, for a browser that does not open) and waits for its redirect on
 * 127.0.0.1; the client-credentials grant needs nobody. The tokens go to the user's token file. Exit
 * status 0 when logged in, 1 when the login failed, 2 for a name or configuration that cannot log in.
 */
export async function mcpLogin(options: McpLoginOptions): Promise<number> {
  const environment = options.environment ?? process.env;
  const server = await serverConfig(options, environment);
  if (typeof server === 'number') return server;
  const { name, output, style } = options;
  const openUrl = options.openUrl ?? ((url: string) => openBrowser(url, environment));
  try {
    const result = await loginMcpServer({
      name,
      config: server,
      store: new FileTokenStore(mcpTokenFile()),
      ...(options.scopes ? { scopes: options.scopes } : {}),
      openAuthorizationUrl: async (url) => {
        const opened = await openUrl(url.href);
        output.write(
          opened
            ? `Opened your browser to log in to MCP server "${name}". If it did not open, go to:\n  ${url.href}\n`
            : `Open this address in a browser to log in to MCP server "${name}":\n  ${url.href}\n`,
        );
        output.write(style.dim('Waiting for the browser to come back (Ctrl-C stops)…\n'));
      },
    });
    if (result.outcome === 'not-needed') {
      output.write(`MCP server "${name}" answered without asking for authorization: there is nothing to log in to.\n`);
      return EXIT_CODES.success;
    }
    const state = describeAuth(
      { state: 'logged-in', ...(result.expiresAt ? { expiresAt: result.expiresAt } : {}) },
      Date.now(),
    );
    output.write(
      `${style.green('✓')} Logged in to MCP server "${name}" (${state.replace('oauth: logged in, ', '')}).\n`,
    );
    return EXIT_CODES.success;
  } catch (error) {
    if (!(error instanceof McpServerError)) throw error;
    options.errorOutput.write(`${style.red('✗')} ${stripControls(error.message)}\n`);
    return EXIT_CODES.error;
  }
}

/** `agentloop mcp logout NAME`: forgets the server's tokens and client registration. */
export async function mcpLogout(options: McpLoginOptions): Promise<number> {
  const server = await serverConfig(options, options.environment ?? process.env);
  if (typeof server === 'number') return server;
  const forgotten = await logoutMcpServer({ config: server, store: new FileTokenStore(mcpTokenFile()) });
  options.output.write(
    forgotten
      ? `Logged out of MCP server "${options.name}": its tokens are forgotten.\n`
      : `MCP server "${options.name}" was not logged in.\n`,
  );
  return EXIT_CODES.success;
}

/** The named HTTP server's configuration, or the exit status after saying why there is none. */
async function serverConfig(
  options: McpLoginOptions,
  environment: Record<string, string | undefined>,
): Promise<McpHttpServerConfig | number> {
  const refuse = (message: string): number => {
    options.errorOutput.write(`${options.style.red('✗')} ${message}\n`);
    return EXIT_CODES.usage;
  };
  let servers: ReturnType<typeof toMcpServersConfig>;
  try {
    const config = await loadConfig({
      cwd: options.cwd,
      ...(options.userConfigFile ? { userFile: options.userConfigFile } : {}),
    });
    servers = toMcpServersConfig(config.mcp_servers ?? {}, environment);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return refuse(error.message);
  }
  const server = Object.hasOwn(servers, options.name) ? servers[options.name] : undefined;
  if (!server) {
    const known = Object.keys(servers);
    return refuse(
      `No MCP server "${stripControls(options.name)}" is configured${known.length > 0 ? ` (there are: ${known.join(', ')})` : ''}; add it as [mcp_servers.${stripControls(options.name)}] with its url.`,
    );
  }
  if (!('url' in server)) {
    return refuse(
      `MCP server "${options.name}" is a program (command), which takes its credentials from its env; only a server with a url logs in.`,
    );
  }
  return server;
}
