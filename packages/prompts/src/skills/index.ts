export type { SkillSummary } from './skills-section.js';
export { SKILLS_SECTION_ID, skillsSection } from './skills-section.js';
