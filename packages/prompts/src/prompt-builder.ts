import { baseInstructionsSection } from './instructions/base-instructions-section.js';
import { developerInstructionsSection } from './instructions/developer-instructions-section.js';
import { EnvironmentContext } from './instructions/environment-context.js';
import type { EnvironmentSnapshot } from './instructions/format-environment-context.js';
import type { ProjectInstructions } from './instructions/read-project-instructions.js';
import { readProjectInstructions } from './instructions/read-project-instructions.js';
import { userInstructionsSection } from './instructions/user-instructions-section.js';
import type { PromptContext, PromptSection } from './prompt-context.js';
import { type SkillSummary, skillsSection } from './skills/skills-section.js';
import { agentLoopGuidanceTemplate, chainOfThoughtTemplate } from './templates/core-templates.js';
import { xmlPromptSections } from './xml/xml-prompt-sections.js';

/** What the default section list is made of. Every field is optional; an absent one adds no section. */
export interface DefaultPromptSectionsOptions {
  /** The app's own instructions, placed after the base instructions. */
  systemPrompt?: string;
  /** Replaces the default base instructions ("How you work"); `{{provider}}`, `{{model}}`, `{{tools}}` are substituted. */
  baseInstructions?: string;
  /** The developer's instructions, placed after the app's system prompt. */
  developerInstructions?: string;
  /** A project's instruction files, as `readProjectInstructions` read them. */
  projectInstructions?: ProjectInstructions;
  /** The environment, rendered as an `<environment_context>` block at the end of the prompt. */
  environment?: EnvironmentContext | EnvironmentSnapshot;
  /** Skills the model can load, listed by name and description (the `load_skill` tool loads one). */
  skills?: readonly SkillSummary[];
}

/** Options of a PromptBuilder. */
export interface PromptBuilderOptions extends DefaultPromptSectionsOptions {
  /** Replaces the default section list entirely; the other options are then ignored. */
  sections?: readonly PromptSection[];
  /**
   * A project directory: its `.agentloop/system_prompt.md` and `AGENTS.md` are read once, in the
   * constructor (which throws ProjectInstructionsError for an unreadable file). Ignored when
   * `projectInstructions` is given.
   */
  projectDir?: string;
}

/**
 * The default sections, in order: base instructions (the project's system_prompt.md, `baseInstructions`
 * or the default), the model's instructions (the context's `modelInstructions`), the app's system prompt,
 * developer instructions, the AGENTS.md instructions, the skills listing, the loop guidance, in XML mode the
 * tool format and the tools, thinking, and the environment. The stable,
 * user-written layers come first and the protocol rules last, nearest to the conversation, where a small
 * model follows them best. Accepts the app's system prompt alone, as before.
 */
export function defaultPromptSections(options: string | DefaultPromptSectionsOptions = {}): PromptSection[] {
  const { systemPrompt, baseInstructions, developerInstructions, projectInstructions, environment, skills } =
    typeof options === 'string' ? { systemPrompt: options } : options;
  const agentsMd = projectInstructions?.agentsMd;
  return [
    baseInstructionsSection({ projectSystemPrompt: projectInstructions?.systemPrompt?.text, baseInstructions }),
    // What a model's family needs told goes with the base instructions, before the app's own words.
    { id: 'model-instructions', render: (context) => context.modelInstructions },
    { id: 'user-system-prompt', render: () => systemPrompt?.trim() },
    ...(developerInstructions === undefined ? [] : [developerInstructionsSection(developerInstructions)]),
    ...(agentsMd && projectInstructions
      ? [userInstructionsSection({ directory: projectInstructions.directory, text: agentsMd.text })]
      : []),
    ...(skills === undefined || skills.length === 0 ? [] : [skillsSection(skills)]),
    { id: 'agent-loop-guidance', render: agentLoopGuidanceTemplate },
    ...xmlPromptSections(),
    { id: 'chain-of-thought', render: chainOfThoughtTemplate },
    ...(environment === undefined
      ? []
      : [environment instanceof EnvironmentContext ? environment : new EnvironmentContext(environment)]),
  ];
}

/**
 * Builds the system prompt from sections. The result is cached per context (tools array, protocol,
 * provider, model), so the loop can call `build` every iteration for free and a provider sees a
 * byte-identical prefix it can cache. Sections never read files while building: project files are read
 * once, when the builder is constructed.
 */
export class PromptBuilder {
  #sections: PromptSection[];
  #cache: { context: PromptContext; prompt: string } | undefined;

  constructor(options: PromptBuilderOptions = {}) {
    this.#sections = [...(options.sections ?? defaultPromptSections(withProjectInstructions(options)))];
  }

  /** The sections in order. */
  get sections(): readonly PromptSection[] {
    return this.#sections;
  }

  /** The environment tracker among the sections, if any; the agent calls its `diff` when the environment changes. */
  get environment(): EnvironmentContext | undefined {
    return this.#sections.find((section): section is EnvironmentContext => section instanceof EnvironmentContext);
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
    this.#cache = { context: { ...context }, prompt: sharedPrompt(prompt) };
    return this.#cache.prompt;
  }
}

/** The prompts built lately, each kept once: see sharedPrompt. */
const recentPrompts = new Map<string, string>();
const RECENT_PROMPTS = 32;

/**
 * One copy of a prompt built by many builders. An app that makes an agent per task gives each the same
 * prompt, built by each into a string of its own (a tree of the joined pieces, about 2 KB): the agent keeps
 * it, and so does the provider's converted conversation, for as long as the agent lives, and
 * with 200 loops at once the copies add up. The last few prompts are kept, the oldest dropped first.
 */
function sharedPrompt(prompt: string): string {
  const known = recentPrompts.get(prompt);
  if (known !== undefined) return known;
  if (recentPrompts.size >= RECENT_PROMPTS) recentPrompts.delete(recentPrompts.keys().next().value as string);
  recentPrompts.set(prompt, prompt);
  return prompt;
}

function withProjectInstructions(options: PromptBuilderOptions): DefaultPromptSectionsOptions {
  if (options.projectInstructions !== undefined || options.projectDir === undefined) return options;
  return { ...options, projectInstructions: readProjectInstructions(options.projectDir) };
}

function sameContext(a: PromptContext, b: PromptContext): boolean {
  return (
    a.tools === b.tools &&
    a.protocol === b.protocol &&
    a.provider === b.provider &&
    a.model === b.model &&
    a.modelInstructions === b.modelInstructions
  );
}
