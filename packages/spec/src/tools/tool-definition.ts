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
}
