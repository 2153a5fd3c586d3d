import type { AgentEvent } from '@agentloop/core';
import { isSecretFieldName, redactUrlCredentials } from '../verbose/redact.js';
import { escapeJsonControls } from './strip-controls.js';
import type { TerminalOutput } from './terminal.js';

/**
 * An event as one line of JSON. Errors become `{ name, code, message, ... }` (an Error's own fields are
 * not enumerable, so plain JSON would drop them); bigints become strings. Every string in it is redacted
 * as toJsonLine says.
 */
export function serializeEvent(event: AgentEvent, redact: (text: string) => string = (text) => text): string {
  return toJsonLine(event, redact);
}

/**
 * Any value as one line of JSON the CLI writes, serialized as `serializeEvent` does: every string in it
 * passes through `redact` (the session's redactor, if any) and has the user-info of its URLs redacted, and control characters
 * JSON.stringify leaves raw (C1, bidi) are escaped, so that a terminal showing the line acts on none of
 * them. Redaction works on the strings before they are serialized, never on the JSON text: a pattern run
 * over the text could cross from one string into the next (`"http://host","b":"me@x"`) and break the
 * line, and a secret with a quote in it would not match its escaped form.
 */
export function toJsonLine(value: unknown, redact: (text: string) => string = (text) => text): string {
  const json = JSON.stringify(value, (key, field: unknown) => {
    if (field instanceof Error) return serializeError(field);
    if (typeof field === 'bigint') return field.toString();
    if (typeof field !== 'string') return field;
    // A key under its own name (`"api_key": "…"`), which text patterns catch by the name beside it.
    if (isSecretFieldName(key) && field.length >= 8) return '[REDACTED]';
    return redactUrlCredentials(redact(field));
  });
  return escapeJsonControls(json);
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
 * Writes each event as a JSON line: the `--json` output of `agentloop run`. Each string of it goes through
 * `redact` (the session's redactor), since events carry request errors and tool output that may hold keys.
 */
export class JsonLinesRenderer {
  constructor(
    private readonly output: TerminalOutput,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  handle(event: AgentEvent): void {
    this.output.write(`${serializeEvent(event, this.redact)}\n`);
  }
}
