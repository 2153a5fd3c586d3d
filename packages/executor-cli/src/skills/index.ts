export type { DiscoveredSkills, SkillDiscoveryOptions } from './discover-skills.js';
export { discoverSkills, PROJECT_SKILLS_FOLDERS } from './discover-skills.js';
export { rememberSkills, sessionSkillsOf, skillStartWarnings } from './session-skills.js';
export { skillWarnings } from './skill-warnings.js';
