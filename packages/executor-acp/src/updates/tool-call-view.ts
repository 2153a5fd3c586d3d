import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { ToolAnnotations } from '@agentloop/core';

/** How an editor shows one tool call: its icon (kind), title, the files it touches and what it changes. */
export interface ToolCallView {
  kind: ToolKind;
  title: string;
  locations: ToolCallLocation[];
  /** What the call is about to change, shown before it runs (a diff for an edit); empty for most calls. */
  content: ToolCallContent[];
}

/** What a view is made from: the call, where the session works, and what the tool declares. */
export interface ToolCallViewInput {
  name: string;
  arguments: unknown;
  /** The session's working directory: relative paths in the arguments are resolved against it. */
  cwd: string;
  annotations?: ToolAnnotations | undefined;
}

/**
 * The view of a call. The workspace tools (read_file, write_file, edit_file, list_files, search,
 * run_command) get their own titles, kinds and locations, and edits their diff; any other tool a kind
 * from what it declares (read-only: `read`, open-world: `fetch`, else `other`) and a title from its name.
 * Never throws, whatever the model sent as arguments.
 */
export function toolCallView(input: ToolCallViewInput): ToolCallView {
  const args = isRecord(input.arguments) ? input.arguments : {};
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  const file = (key: string) => {
    const path = text(key);
    return path === undefined ? undefined : absolute(input.cwd, path);
  };
  const path = text('path');
  switch (input.name) {
    case 'read_file': {
      const start = typeof args.start_line === 'number' ? args.start_line : undefined;
      const end = typeof args.end_line === 'number' ? args.end_line : undefined;
      const lines = start === undefined ? '' : end === undefined ? ` (from line ${start})` : ` (lines ${start}-${end})`;
      return view('read', `Read ${quote(path)}${lines}`, located(file('path'), start));
    }
    case 'write_file': {
      const target = file('path');
      const content = text('content');
      return view(
        'edit',
        `Write ${quote(path)}`,
        located(target),
        target !== undefined && content !== undefined
          ? [{ type: 'diff', path: target, oldText: null, newText: content }]
          : [],
      );
    }
    case 'edit_file': {
      const target = file('path');
      const oldText = text('old_text');
      const newText = text('new_text');
      return view(
        'edit',
        `Edit ${quote(path)}`,
        located(target),
        target !== undefined && oldText !== undefined && newText !== undefined
          ? [{ type: 'diff', path: target, oldText, newText }]
          : [],
      );
    }
    case 'list_files': {
      const pattern = text('pattern');
      return view(
        'search',
        pattern ? `List files matching ${quote(pattern)}` : `List ${quote(path ?? '.')}`,
        located(file('path')),
      );
    }
    case 'search':
      return view(
        'search',
        `Search for ${quote(text('pattern'))}${path ? ` in ${quote(path)}` : ''}`,
        located(file('path')),
      );
    case 'run_command': {
      const directory = text('directory');
      return view(
        'execute',
        `Run ${quote(text('command'))}`,
        located(directory === undefined ? undefined : absolute(input.cwd, directory)),
      );
    }
    default:
      return view(kindOf(input.annotations), titleOf(input.name, args), []);
  }
}

function view(
  kind: ToolKind,
  title: string,
  locations: ToolCallLocation[],
  content: ToolCallContent[] = [],
): ToolCallView {
  return { kind, title, locations, content };
}

function located(path: string | undefined, line?: number): ToolCallLocation[] {
  if (path === undefined) return [];
  return [line === undefined ? { path } : { path, line }];
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function kindOf(annotations: ToolAnnotations | undefined): ToolKind {
  if (annotations?.readOnly === true) return 'read';
  if (annotations?.openWorld === true) return 'fetch';
  return 'other';
}

// `github__create_issue` with `{ title: "Crash" }` → `github__create_issue: Crash`: the first short text
// argument says most about a call.
function titleOf(name: string, args: Record<string, unknown>): string {
  const first = Object.values(args).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return first === undefined ? name : `${name}: ${shorten(first.trim().split('\n')[0] ?? '')}`;
}

function quote(text: string | undefined): string {
  return text === undefined ? '…' : `\`${shorten(text)}\``;
}

function shorten(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
