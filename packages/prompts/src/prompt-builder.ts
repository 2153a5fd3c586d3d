import type { PromptContext, PromptSection } from './prompt-context.js';
import { agentLoopGuidanceTemplate, chainOfThoughtTemplate, systemCapabilitiesTemplate } from './templates/core-templates.js';

/** Options of a PromptBuilder. */
export interface PromptBuilderOptions {
  /** The app's own instructions, placed after the agent's core guidance. */
  systemPrompt?: string;
  /** Replaces the default section list entirely. */
  sections?: readonly PromptSection[];
}

/** The default sections, in order: capabilities, the user's system prompt, loop guidance, thinking. */
export function defaultPromptSections(systemPrompt?: string): PromptSection[] {
  return [
    { id: 'system-capabilities', render: systemCapabilitiesTemplate },
    { id: 'user-system-prompt', render: () => systemPrompt?.trim() },
    { id: 'agent-loop-guidance', render: agentLoopGuidanceTemplate },
    { id: 'chain-of-thought', render: chainOfThoughtTemplate },
  ];
}

/**
 * Builds the system prompt from sections. The result is cached per context (tools array, protocol,
 * provider, model), so the loop can call `build` every iteration for free and a provider sees a
 * byte-identical prefix it can cache.
 */
export class PromptBuilder {
  #sections: PromptSection[];
  #cache: { context: PromptContext; prompt: string } | undefined;

  constructor(options: PromptBuilderOptions = {}) {
    this.#sections = [...(options.sections ?? defaultPromptSections(options.systemPrompt))];
  }

  /** The sections in order. */
  get sections(): readonly PromptSection[] {
    return this.#sections;
  }

  /** Adds a section after the one with id `after` (at the end when absent), or replaces one with its id. */
  use(section: PromptSection, options: { after?: string } = {}): this {
    const existing = this.#sections.findIndex((candidate) => candidate.id === section.id);
    if (existing >= 0) {
      this.#sections[existing] = section;
    } else {
      const anchor = options.after === undefined ? -1 : this.#sections.findIndex((s) => s.id === options.after);
      this.#sections.splice(anchor >= 0 ? anchor + 1 : this.#sections.length, 0, section);
    }
    this.#cache = undefined;
    return this;
  }

  /** Removes the section with this id; returns false when there is none. */
  remove(id: string): boolean {
    const index = this.#sections.findIndex((section) => section.id === id);
    if (index < 0) return false;
    this.#sections.splice(index, 1);
    this.#cache = undefined;
    return true;
  }

  /** Renders the system prompt: the non-empty sections, separated by blank lines. */
  build(context: PromptContext): string {
    const cached = this.#cache;
    if (cached && sameContext(cached.context, context)) return cached.prompt;
    const prompt = this.#sections
      .map((section) => section.render(context)?.trim())
      .filter((text): text is string => Boolean(text))
      .join('\n\n');
    this.#cache = { context: { ...context }, prompt };
    return prompt;
  }
}

function sameContext(a: PromptContext, b: PromptContext): boolean {
  return a.tools === b.tools && a.protocol === b.protocol && a.provider === b.provider && a.model === b.model;
}
