/** A JSON Schema object, as providers and the XML prompt expect it. */
export type JsonSchema = { [key: string]: unknown };

/** A tool as it is described to a model: name, description and JSON Schema of its input. */
export interface ToolDefinition {
  /** The tool's name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The JSON Schema of the tool's arguments (always an object schema). */
  readonly inputSchema: JsonSchema;
  /**
   * The server the tool comes from (an MCP server); absent for the agent's own (`local`) tools. The XML
   * protocol names it in a call's `server_name`, and its prompt lists tools grouped by it.
   */
  readonly server?: {
    /** The server's name: the XML protocol's `server_name`, and the prefix of the tool's native name. */
    readonly name: string;
    /** The tool's name on that server: the XML protocol's `tool_name`. */
    readonly toolName: string;
  };
}
