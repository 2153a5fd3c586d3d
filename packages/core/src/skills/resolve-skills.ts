import { AgentUsageError } from '../errors/index.js';
import { loadSkills } from './load-skills.js';
import type { LoadedSkills, Skill } from './skill.js';
import { MAX_SKILL_NAME_LENGTH, SKILL_NAME_PATTERN } from './skill.js';

/** What an agent's `skills` option takes: skills, and folders of skills to read. */
export type SkillsOption = readonly (Skill | string)[];

/**
 * The skills of an agent's `skills` option, in order: a string is a folder read by `loadSkills` (its
 * broken skills become problems), an object is a skill as it is. The first of a name wins. Throws an
 * AgentUsageError for a skill object without a valid name, a description or instructions: that is the
 * app's code, not a file a user wrote.
 */
export function resolveSkills(option: SkillsOption | undefined): LoadedSkills {
  const skills: Skill[] = [];
  const problems: LoadedSkills['problems'] = [];
  const names = new Set<string>();
  for (const entry of option ?? []) {
    const found = typeof entry === 'string' ? loadSkills([entry]) : { skills: [checkedSkill(entry)], problems: [] };
    problems.push(...found.problems);
    for (const skill of found.skills) {
      if (names.has(skill.name)) continue;
      names.add(skill.name);
      skills.push(skill);
    }
  }
  return { skills, problems };
}

function checkedSkill(skill: Skill): Skill {
  const name: unknown = skill?.name;
  if (typeof name !== 'string' || name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME_PATTERN.test(name)) {
    throw new AgentUsageError(
      `The skill name ${JSON.stringify(name)} is not valid: use lowercase letters, digits and single "-" between them, at most ${MAX_SKILL_NAME_LENGTH} characters.`,
      'invalid_option',
    );
  }
  for (const field of ['description', 'instructions'] as const) {
    if (typeof skill[field] !== 'string' || skill[field].trim() === '') {
      throw new AgentUsageError(`The skill "${name}" has no ${field}: give it as non-empty text.`, 'invalid_option');
    }
  }
  return skill;
}
