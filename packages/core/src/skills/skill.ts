/**
 * A skill in the open Agent Skills format: instructions for one kind of task, which the model loads when
 * it needs them (`load_skill`), with the files of its folder, or the user names as `$name`.
 */
export interface Skill {
  /** Its name: lowercase letters, digits and `-`, at most 64 characters. */
  readonly name: string;
  /** What it is for and when to use it; the system prompt lists it. */
  readonly description: string;
  /** The instructions: SKILL.md after its front matter. */
  readonly instructions: string;
  /** The skill's folder, whose files `load_skill` reads; absent for a skill an app makes in code. */
  readonly directory?: string;
  /** Where it was found (the skills folder it came from); absent for an app's own. */
  readonly source?: string;
}

/** A skill that could not be loaded: the file and what is wrong with it. The other skills still load. */
export interface SkillProblem {
  /** The file (a SKILL.md) or folder at fault. */
  readonly file: string;
  /** What is wrong, and what to do. */
  readonly message: string;
}

/** The skills of some folders, and the problems of those that could not be loaded. */
export interface LoadedSkills {
  readonly skills: Skill[];
  readonly problems: SkillProblem[];
}

/** What a skill's name may be, as the Agent Skills format says. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest skill name. */
export const MAX_SKILL_NAME_LENGTH = 64;

/** The longest skill description. */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;
