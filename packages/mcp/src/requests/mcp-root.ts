import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A directory the client lets servers work in (MCP's roots): a `file://` URI and a name for display. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/** A directory as a root: its absolute `file://` URI, named after its last segment. */
export function directoryRoot(directory: string, name?: string): McpRoot {
  const path = resolve(directory);
  return { uri: pathToFileURL(path).href, name: name ?? (basename(path) || path) };
}
