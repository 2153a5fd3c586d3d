import type { AgentEvent } from '@agentloop/core';
import { redactUrlCredentials } from '../verbose/redact.js';
import { escapeJsonControls } from './strip-controls.js';
import type { TerminalOutput } from './terminal.js';

/**
 * An event as one line of JSON. Errors become `{ name, code, message, ... }` (an Error's own fields are
 * not enumerable, so plain JSON would drop them); bigints become strings.
 */
export function serializeEvent(event: AgentEvent): string {
  return toJsonLine(event);
}

/**
 * Any value as one line of JSON the CLI writes, serialized as `serializeEvent` does: the user-info of
 * every URL in it is redacted, and control characters JSON.stringify leaves raw (C1, bidi) are escaped,
 * so that a terminal showing the line acts on none of them.
 */
export function toJsonLine(value: unknown): string {
  const json = JSON.stringify(value, (_key, field: unknown) => {
    if (field instanceof Error) return serializeError(field);
    if (typeof field === 'bigint') return field.toString();
    return field;
  });
  return escapeJsonControls(redactUrlCredentials(json));
}

/** An error as a plain object: agentloop errors by their `toJSON`, others by name, code and message. */
export function serializeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const withJson = error as Error & { toJSON?: () => Record<string, unknown> };
    if (typeof withJson.toJSON === 'function') return withJson.toJSON();
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(code === undefined ? {} : { code }) };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * Writes each event as a JSON line: the `--json` output of `agentloop run`. Each line goes through
 * `redact` (the session's redactor), since events carry request errors and tool output that may hold keys.
 */
export class JsonLinesRenderer {
  constructor(
    private readonly output: TerminalOutput,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  handle(event: AgentEvent): void {
    this.output.write(`${this.redact(serializeEvent(event))}\n`);
  }
}
