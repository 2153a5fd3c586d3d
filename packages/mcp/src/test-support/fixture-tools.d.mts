import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A 1×1 PNG, base64. */
export declare const TINY_PNG: string;
/** Registers the fixture tools; `log(line)` records what the server saw. */
export declare function registerFixtureTools(server: McpServer, log?: (line: string) => void): void;
/** Appends a line to the file named by FIXTURE_LOG, when it is set. */
export declare function fileLog(line: string): void;
