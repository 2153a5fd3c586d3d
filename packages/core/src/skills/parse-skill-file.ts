import { MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH, SKILL_NAME_PATTERN } from './skill.js';

/** A SKILL.md, read: its front matter's name and description, and the instructions after it. */
export interface ParsedSkillFile {
  name: string;
  description: string;
  instructions: string;
}

/**
 * Reads a SKILL.md: YAML front matter between `---` lines, then Markdown. Throws an Error whose message
 * says what is wrong (and on which line) for a file without front matter, without a `name` or a
 * `description`, or with one that is not valid.
 *
 * The front matter is parsed here, strictly, rather than by a YAML library: the format's keys are flat
 * strings (`name`, `description`, `license`, `compatibility`, `allowed-tools`) and one nested map
 * (`metadata`), which a few lines read; core's import stays free of a parser its users would load for
 * two strings. Anything outside that subset (an anchor, a flow map, a tab indent) is an error that says
 * so, never a silent misreading.
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    throw new Error('has no front matter: it must start with a "---" line, then name and description, then "---"');
  }
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new Error('has no end to its front matter: close it with a "---" line');
  const fields = parseFrontMatter(lines.slice(1, end));
  const name = requiredField(fields, 'name');
  const description = requiredField(fields, 'description');
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME_PATTERN.test(name)) {
    throw new Error(
      `has the name ${JSON.stringify(name)}: a name is lowercase letters, digits and single "-" between them, at most ${MAX_SKILL_NAME_LENGTH} characters`,
    );
  }
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    throw new Error(`has a description of ${description.length} characters: at most ${MAX_SKILL_DESCRIPTION_LENGTH}`);
  }
  return {
    name,
    description,
    instructions: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

function requiredField(fields: Map<string, string>, key: string): string {
  const value = fields.get(key)?.trim();
  if (!value) throw new Error(`has no ${key} in its front matter: add "${key}: ..."`);
  return value;
}

/** The top-level string fields; nested maps (`metadata`) are checked for shape and skipped. */
function parseFrontMatter(lines: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const at = `line ${index + 2} of the front matter`;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (/^\t/.test(line)) throw new Error(`has a tab indent on ${at}: YAML indents with spaces`);
    if (/^ /.test(line)) throw new Error(`has an indented line where a key was expected, on ${at}`);
    const match = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/.exec(line);
    if (!match) throw new Error(`has a line that is not "key: value" on ${at}: ${JSON.stringify(line)}`);
    const key = match[1] as string;
    const raw = (match[2] ?? '').trim();
    if (fields.has(key)) throw new Error(`has "${key}" twice, on ${at}`);
    // The lines indented under this key: a block scalar's text, or a nested map.
    let next = index + 1;
    while (next < lines.length && (/^\s/.test(lines[next] as string) || (lines[next] as string).trim() === '')) next++;
    const block = lines.slice(index + 1, next);
    index = next - 1;
    if (/^[|>][+-]?$/.test(raw)) {
      fields.set(key, blockScalar(block, raw.startsWith('>')));
    } else if (raw === '') {
      // A nested map (`metadata:`) or an empty value; neither is a string field.
      fields.set(key, '');
    } else {
      if (block.some((text) => text.trim() !== '')) {
        fields.set(key, `${scalar(raw, at)} ${block.map((text) => text.trim()).join(' ')}`.trim());
      } else fields.set(key, scalar(raw, at));
    }
  }
  return fields;
}

function scalar(raw: string, at: string): string {
  if (raw.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === 'string') return value;
    } catch {
      // Reported below.
    }
    throw new Error(`has a double-quoted value that does not end where it should on ${at}: ${raw}`);
  }
  if (raw.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(raw)) throw new Error(`has a single-quoted value that does not end on ${at}: ${raw}`);
    return raw.slice(1, -1).replaceAll("''", "'");
  }
  if (/^[[{&*!%@`]/.test(raw)) {
    throw new Error(`has a value this reader does not take on ${at} (${raw}): quote it`);
  }
  // A plain scalar ends before a comment.
  return raw.replace(/\s+#.*$/, '');
}

function blockScalar(block: readonly string[], folded: boolean): string {
  const indent = Math.min(
    ...block.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  const text = block.map((line) => line.slice(Number.isFinite(indent) ? indent : 0));
  return (folded ? text.join(' ').replace(/\s+/g, ' ') : text.join('\n')).trim();
}
