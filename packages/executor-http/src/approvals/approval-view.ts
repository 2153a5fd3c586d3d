import type { AgentEventMap } from '@agentloop/core';

/** What an approval screen shows of a tool call: an edit with its diff, a command, or another call. */
export type ApprovalView =
  | { kind: 'edit'; title: string; path: string; diff: string }
  | { kind: 'command'; title: string; command: string }
  | { kind: 'other'; title: string };

/**
 * Describes a call waiting for approval for a person: the workspace tools' edits (`old_text`/`new_text`,
 * `content`, a `patch`) as a diff of the call's own arguments (the file is not read: the server shows what
 * the model asked for), a call with a command as that command, anything else by its tool name.
 */
export function approvalView(event: AgentEventMap['approval-requested']): ApprovalView {
  if (event.command !== undefined) return { kind: 'command', title: `Run ${event.command}`, command: event.command };
  const args = isRecord(event.arguments) ? event.arguments : {};
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (typeof args.patch === 'string') {
    return { kind: 'edit', title: path ? `Patch ${path}` : 'Apply a patch', path: path ?? '', diff: args.patch };
  }
  if (path !== undefined && typeof args.old_text === 'string' && typeof args.new_text === 'string') {
    const diff = [
      `--- a/${path}`,
      `+++ b/${path}`,
      ...prefixLines('-', args.old_text),
      ...prefixLines('+', args.new_text),
    ].join('\n');
    return { kind: 'edit', title: `Edit ${path}`, path, diff };
  }
  if (path !== undefined && typeof args.content === 'string') {
    const diff = [`+++ b/${path}`, ...prefixLines('+', args.content)].join('\n');
    return { kind: 'edit', title: `Write ${path}`, path, diff };
  }
  return { kind: 'other', title: `Call ${event.name}` };
}

function prefixLines(prefix: string, text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => prefix + line);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
