/**
 * One file's change as the Responses API's own `apply_patch` tool describes it: the `operation` of an
 * `apply_patch_call`, whose `diff` is a V4A diff of that one file (absent for a delete).
 */
export interface ApplyPatchOperation {
  /** What happens to the file: `create_file`, `update_file` or `delete_file`. */
  type: string;
  /** The file, relative to the workspace. */
  path: string;
  /** For a create, the file's lines each after `+`; for an update, `@@` hunks of ` `, `-` and `+` lines. */
  diff?: string;
}

const SECTIONS: Readonly<Record<string, string>> = {
  create_file: 'Add File',
  update_file: 'Update File',
  delete_file: 'Delete File',
};

/**
 * The operation as the `*** Begin Patch` ... `*** End Patch` text the `apply_patch` workspace tool takes.
 * The API's diff already has that format's hunk syntax; only the envelope and the section line are
 * missing. An operation type this code does not know keeps its name in the section line, so the tool's
 * parser rejects it with an error the model sees, rather than a call that is silently dropped. A `cutOff`
 * diff (the response ended inside it) gets no `*** End Patch`: the tool then refuses the patch instead of
 * writing a file cut short.
 */
export function applyPatchEnvelope(operation: ApplyPatchOperation, options: { cutOff?: boolean } = {}): string {
  const section = SECTIONS[operation.type] ?? operation.type;
  const lines = ['*** Begin Patch', `*** ${section}: ${operation.path}`];
  const diff = operation.type === 'delete_file' ? '' : (operation.diff ?? '').replace(/\r?\n$/, '');
  if (diff !== '') lines.push(diff);
  if (!options.cutOff) lines.push('*** End Patch');
  return `${lines.join('\n')}\n`;
}
