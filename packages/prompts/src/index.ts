export { defaultPromptSections, PromptBuilder } from './prompt-builder.js';
export type { PromptBuilderOptions } from './prompt-builder.js';
export type { PromptContext, PromptSection, ToolProtocol } from './prompt-context.js';
export * from './templates/index.js';
