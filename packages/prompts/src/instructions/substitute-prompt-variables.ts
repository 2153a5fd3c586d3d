import type { PromptContext } from '../prompt-context.js';

// Only the known names are replaced, so a prompt can still show other `{{…}}` text (a template language
// it explains, say) as it is.
const VARIABLE = /\{\{\s*(provider|model|tools)\s*\}\}/g;

/**
 * Replaces `{{provider}}`, `{{model}}` and `{{tools}}` (the tools' names, comma-separated, in the given
 * order) with the context's values; an absent provider or model becomes the empty string. Spaces inside
 * the braces are allowed; other names are left as they are.
 */
export function substitutePromptVariables(template: string, context: PromptContext): string {
  return template.replace(VARIABLE, (_match, name: 'provider' | 'model' | 'tools') => {
    if (name === 'tools') return context.tools.map((tool) => tool.name).join(', ');
    return context[name] ?? '';
  });
}
