import { SessionStoreError } from '@agentloop/memory';
import { AgentloopError, describeThrown } from '@agentloop/spec';

/**
 * A store's failure as a SessionStoreError. The stores of @agentloop/sessions throw typed errors already;
 * any other store (an app's own, a plugin's) may throw what its file system or driver threw (`ENOSPC`,
 * `SQLITE_FULL`, `EROFS`), and a run must end the same typed way whatever the store does.
 */
export function sessionStoreFailure(error: unknown, sessionId: string, doing: 'opened' | 'saved'): SessionStoreError {
  if (error instanceof SessionStoreError || (AgentloopError.isInstance(error) && error.name === 'SessionStoreError')) {
    return error as SessionStoreError;
  }
  const text = describeThrown(error);
  const code = systemCode(error);
  // Node's own messages start with their code ("ENOSPC: no space left on device"); a driver's may not.
  const system = code !== undefined && !text.includes(code) ? ` (${code})` : '';
  const after =
    doing === 'saved'
      ? 'The turns saved before are intact; once the store works again, the next run saves this one too.'
      : 'Check where the session store keeps its data (free space, permissions), then try again.';
  return new SessionStoreError(`Session ${sessionId} could not be ${doing}: ${text}${system}. ${after}`, {
    code: 'store_failed',
    sessionId,
    cause: error,
  });
}

function systemCode(error: unknown): string | undefined {
  try {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
