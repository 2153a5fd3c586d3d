import { escapeXmlText } from '../xml/escape-xml.js';

/** The environment the agent acts in, as the model is told about it. Every field is optional. */
export interface EnvironmentSnapshot {
  /** The working directory. */
  cwd?: string;
  /** When the agent must ask before acting, e.g. `untrusted`, `on-request`, `never`. */
  approvalPolicy?: string;
  /** How commands are sandboxed, e.g. `read-only`, `workspace-write`, `danger-full-access`. */
  sandboxMode?: string;
  /** Whether commands may use the network. */
  networkAccess?: 'enabled' | 'restricted';
  /** The directories the agent may write to. */
  writableRoots?: readonly string[];
  /** The shell commands run in, e.g. `bash` or `zsh`. */
  shell?: string;
}

// The fields in the order they are rendered, with their element names.
const FIELDS = [
  ['cwd', 'cwd'],
  ['approvalPolicy', 'approval_policy'],
  ['sandboxMode', 'sandbox_mode'],
  ['networkAccess', 'network_access'],
  ['writableRoots', 'writable_roots'],
  ['shell', 'shell'],
] as const satisfies ReadonlyArray<readonly [keyof EnvironmentSnapshot, string]>;

/**
 * The full `<environment_context>` block, one child element per field that is set (values escaped);
 * the empty string when no field is set.
 */
export function formatEnvironmentContext(snapshot: EnvironmentSnapshot): string {
  const lines = FIELDS.filter(([field]) => snapshot[field] !== undefined).flatMap(([field, element]) =>
    fieldLines(element, snapshot[field]),
  );
  return lines.length === 0 ? '' : ['<environment_context>', ...lines, '</environment_context>'].join('\n');
}

/**
 * An `<environment_diff>` block with only the fields that differ between the two snapshots, each with its
 * new value (a field that was unset is an empty element); the empty string when nothing changed.
 */
export function formatEnvironmentDiff(previous: EnvironmentSnapshot, next: EnvironmentSnapshot): string {
  const lines = FIELDS.filter(([field]) => !sameValue(previous[field], next[field])).flatMap(([field, element]) =>
    fieldLines(element, next[field]),
  );
  return lines.length === 0 ? '' : ['<environment_diff>', ...lines, '</environment_diff>'].join('\n');
}

function fieldLines(element: string, value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [`  <${element}></${element}>`];
  if (typeof value === 'string') return [`  <${element}>${escapeXmlText(value)}</${element}>`];
  if (value.length === 0) return [`  <${element}></${element}>`];
  return [`  <${element}>`, ...value.map((root) => `    <root>${escapeXmlText(root)}</root>`), `  </${element}>`];
}

function sameValue(a: string | readonly string[] | undefined, b: string | readonly string[] | undefined): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => item === b[index]);
  return a === b;
}
