export type { BaseInstructionsOptions } from './base-instructions-section.js';
export { BASE_INSTRUCTIONS_SECTION_ID, baseInstructionsSection } from './base-instructions-section.js';
export { DEVELOPER_INSTRUCTIONS_SECTION_ID, developerInstructionsSection } from './developer-instructions-section.js';
export { ENVIRONMENT_CONTEXT_SECTION_ID, EnvironmentContext } from './environment-context.js';
export type { EnvironmentSnapshot } from './format-environment-context.js';
export { formatEnvironmentContext, formatEnvironmentDiff } from './format-environment-context.js';
export { ProjectInstructionsError } from './project-instructions-error.js';
export type { InstructionFile, ProjectInstructions } from './read-project-instructions.js';
export { AGENTS_MD_FILE, PROJECT_SYSTEM_PROMPT_FILE, readProjectInstructions } from './read-project-instructions.js';
export { substitutePromptVariables } from './substitute-prompt-variables.js';
export type { UserInstructions } from './user-instructions-section.js';
export {
  formatUserInstructions,
  USER_INSTRUCTIONS_SECTION_ID,
  userInstructionsSection,
} from './user-instructions-section.js';
