import type { WorkspaceFileSystem } from '@agentloop/workspace-tools';
import type { SessionOutbox } from '../session/session-outbox.js';
import { withdrawnOn } from './withdrawn-on.js';

/**
 * The editor's buffers as the workspace tools' file system: `fs/read_text_file` and `fs/write_text_file`,
 * so that the model reads unsaved changes and the editor applies the edits as its user's. The workspace
 * guard has checked every path before it gets here. Each request goes out after the updates queued before
 * it (the call's `tool_call`), and is withdrawn (`$/cancel_request`) when the call is cancelled.
 */
export function createClientFileSystem(outbox: SessionOutbox): WorkspaceFileSystem {
  return {
    async readTextFile({ path, signal }) {
      await outbox.flush();
      const response = await outbox.client.request(
        'fs/read_text_file',
        { sessionId: outbox.sessionId, path },
        withdrawnOn(signal),
      );
      return response.content;
    },
    async writeTextFile({ path, content, signal }) {
      await outbox.flush();
      await outbox.client.request(
        'fs/write_text_file',
        { sessionId: outbox.sessionId, path, content },
        withdrawnOn(signal),
      );
    },
  };
}
