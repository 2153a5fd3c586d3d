// Failures of the user's setup rather than of a run: exit status 2, and the message as it is (it says
// what to set or fix).
const SETUP_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_base_url',
  'invalid_config',
  'invalid_cwd',
  'invalid_record_file',
  // agentloop serve: a bad port, host or token, or an address it cannot listen on.
  'invalid_serve_settings',
  'project_instructions_unreadable',
  'no_provider',
  'no_task',
  // agentloop run "… @server:uri": a resource it mentions could not be attached, so nothing was sent.
  'resource_not_attached',
  'plugin_failed',
  'plugin_not_found',
  'duplicate_plugin',
  'duplicate_tool',
  // Sessions: --continue / --resume found nothing, another agentloop has the session open, or the store
  // cannot work here (better-sqlite3 missing).
  'no_session',
  'unknown_session',
  'ambiguous_session',
  'sessions_off',
  'no_session_id',
  'session_locked',
  'store_unavailable',
]);

/** True for a failure of the user's setup: configuration, provider, plugins, a missing task. */
export function isSetupError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && SETUP_ERROR_CODES.has((error as { code?: unknown }).code as string);
}
