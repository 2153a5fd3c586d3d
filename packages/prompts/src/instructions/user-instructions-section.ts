import type { PromptSection } from '../prompt-context.js';

/** The id of the user-instructions (AGENTS.md) section. */
export const USER_INSTRUCTIONS_SECTION_ID = 'user-instructions';

/** A user's instructions for a directory, as read from its `AGENTS.md`. */
export interface UserInstructions {
  /** The directory the instructions apply to. */
  directory: string;
  /** The instructions. */
  text: string;
}

/**
 * Wraps AGENTS.md text as `# AGENTS.md instructions for <directory>`, then the text inside
 * `<INSTRUCTIONS>` tags, so the model can tell the user's project rules from the rest of the prompt.
 * The text is not escaped: it is the user's own file, and escaping would garble its code samples.
 */
export function formatUserInstructions(instructions: UserInstructions): string {
  return `# AGENTS.md instructions for ${instructions.directory}\n<INSTRUCTIONS>\n${instructions.text.trim()}\n</INSTRUCTIONS>`;
}

/** The user's AGENTS.md instructions as a section; left out when the text is empty. */
export function userInstructionsSection(instructions: UserInstructions): PromptSection {
  const prompt = instructions.text.trim() ? formatUserInstructions(instructions) : undefined;
  return { id: USER_INSTRUCTIONS_SECTION_ID, render: () => prompt };
}
