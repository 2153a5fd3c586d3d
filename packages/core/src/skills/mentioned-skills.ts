import { formatSkill } from './load-skill-tool.js';
import type { Skill } from './skill.js';

// `$` then a name, not inside a word (`a$b`) nor followed by more name characters: `$pdf.` names `pdf`,
// `$pdfs` does not. Only known names count, so `$PATH` or `$HOME` in a message stay text.
const MENTION = /(?<![\w$])\$([a-z0-9]+(?:-[a-z0-9]+)*)(?![\w-])/g;

/** The known skills a message names as `$name`, each once, in the order they are named. */
export function mentionedSkills(text: string, skills: readonly Skill[]): Skill[] {
  if (skills.length === 0 || !text.includes('$')) return [];
  const found: Skill[] = [];
  for (const match of text.matchAll(MENTION)) {
    const skill = skills.find((candidate) => candidate.name === match[1]);
    if (skill && !found.includes(skill)) found.push(skill);
  }
  return found;
}

/**
 * A turn's input with the instructions of each skill it names as `$name` after the user's text, so the
 * model has them without a `load_skill` call. Input that names none is returned as it is.
 */
export function withMentionedSkills(text: string, skills: readonly Skill[]): string {
  const mentioned = mentionedSkills(text, skills);
  if (mentioned.length === 0) return text;
  return [text, ...mentioned.map(formatSkill)].join('\n\n');
}

/**
 * A turn's input without the skills `withMentionedSkills` added: the user's own text, for a session's
 * title. Text where none was added is returned as it is.
 */
export function withoutMentionedSkills(text: string): string {
  const start = text.search(/\n\n<skill name="[a-z0-9-]+"[ >]/);
  return start < 0 ? text : text.slice(0, start);
}
