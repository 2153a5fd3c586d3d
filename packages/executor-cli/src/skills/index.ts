export type { DiscoveredSkills, SkillDiscoveryOptions } from './discover-skills.js';
export { discoverSkills, PROJECT_SKILLS_FOLDERS, skillWarnings } from './discover-skills.js';
export { rememberSkills, sessionSkillsOf, skillStartWarnings } from './session-skills.js';
