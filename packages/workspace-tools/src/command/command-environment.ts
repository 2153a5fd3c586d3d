/**
 * Names of environment variables that look like they hold a secret: API keys, tokens, passwords,
 * credentials (the patterns Codex leaves out of a command's environment), the SSH and GPG agents'
 * sockets, which sign with the user's keys, and the user's D-Bus session bus, through which a command can
 * ask the user's services to run programs.
 */
export const SECRET_VARIABLE =
  /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|^SSH_AUTH_SOCK$|^GPG_AGENT_INFO$|^DBUS_SESSION_BUS_ADDRESS$/i;

/**
 * The environment a command runs with: `base` without the variables that look like secrets, so that
 * `env` or `echo $OPENAI_API_KEY` in a command never puts the agent's own API key in a tool result.
 */
export function commandEnvironment(base: Record<string, string | undefined>): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !SECRET_VARIABLE.test(name)) environment[name] = value;
  }
  return environment;
}
