import type { PromptSection } from '../prompt-context.js';

/** The id of the skills listing section. */
export const SKILLS_SECTION_ID = 'skills';

/** What the prompt says of a skill: its name and when to use it. The body is loaded on demand. */
export interface SkillSummary {
  /** The name the model loads it by (`load_skill`) and the user mentions it by (`$name`). */
  readonly name: string;
  /** What the skill is for and when to use it. */
  readonly description: string;
}

/**
 * Lists the skills by name and description, under `# Skills`, with how to load one; left out without
 * skills. Only the listing is in the prompt, so that a skill costs a line until it is used, and the text is
 * rendered once, here, so that every call sends the same bytes and the provider's prompt cache holds.
 */
export function skillsSection(skills: readonly SkillSummary[]): PromptSection {
  const prompt = skills.length === 0 ? undefined : formatSkills(skills);
  return { id: SKILLS_SECTION_ID, render: () => prompt };
}

function formatSkills(skills: readonly SkillSummary[]): string {
  // A description written over several lines would break the list: it is one line here.
  const lines = skills.map(({ name, description }) => `- ${name}: ${description.replace(/\s+/g, ' ').trim()}`);
  return [
    '# Skills',
    'Skills are instructions for particular tasks, some with scripts and reference files. When a task matches a skill below, load the skill with the `load_skill` tool (its `name`) before you start, and follow it; load a file it mentions with `load_skill` and `file`. A skill the user names as `$name` comes with their message, already loaded.',
    ...lines,
  ].join('\n');
}
