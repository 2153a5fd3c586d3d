import type { PromptSection } from '../prompt-context.js';
import { systemCapabilitiesTemplate } from '../templates/core-templates.js';
import { substitutePromptVariables } from './substitute-prompt-variables.js';

/** The id of the base-instructions section; the same as the default section it replaces. */
export const BASE_INSTRUCTIONS_SECTION_ID = 'system-capabilities';

/** What the base instructions are made of; the first one given wins. */
export interface BaseInstructionsOptions {
  /** The project's `.agentloop/system_prompt.md` text. */
  projectSystemPrompt?: string;
  /** The app's override of the default base instructions. */
  baseInstructions?: string;
}

/**
 * The base of the system prompt: the project's `.agentloop/system_prompt.md` over the app's
 * `baseInstructions` over the default "How you work" template. The project file wins because the app
 * opts in to it by naming a project directory, and a project's own prompt is the more specific one.
 * An override gets `{{provider}}`, `{{model}}` and `{{tools}}` substituted; an empty one leaves the
 * section out.
 */
export function baseInstructionsSection(options: BaseInstructionsOptions = {}): PromptSection {
  const override = options.projectSystemPrompt ?? options.baseInstructions;
  return {
    id: BASE_INSTRUCTIONS_SECTION_ID,
    render: (context) =>
      override === undefined ? systemCapabilitiesTemplate(context) : substitutePromptVariables(override, context),
  };
}
