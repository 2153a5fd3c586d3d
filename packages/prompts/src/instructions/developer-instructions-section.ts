import type { PromptSection } from '../prompt-context.js';

/** The id of the developer-instructions section. */
export const DEVELOPER_INSTRUCTIONS_SECTION_ID = 'developer-instructions';

/** The developer's instructions under a `# Developer instructions` heading; left out when empty. */
export function developerInstructionsSection(instructions: string): PromptSection {
  const text = instructions.trim();
  return {
    id: DEVELOPER_INSTRUCTIONS_SECTION_ID,
    render: () => (text ? `# Developer instructions\n${text}` : undefined),
  };
}
