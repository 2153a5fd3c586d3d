export { LOAD_SKILL_TOOL_NAME, loadSkillTool, registerLoadSkillTool } from './load-skill-tool.js';
export { loadSkills, SKILL_FILE } from './load-skills.js';
export { mentionedSkills, withMentionedSkills, withoutMentionedSkills } from './mentioned-skills.js';
export { parseSkillFile } from './parse-skill-file.js';
export { resolveSkills, type SkillsOption } from './resolve-skills.js';
export type { LoadedSkills, Skill, SkillProblem } from './skill.js';
