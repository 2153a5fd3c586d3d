export * from './instructions/index.js';
export type { DefaultPromptSectionsOptions, PromptBuilderOptions } from './prompt-builder.js';
export { defaultPromptSections, PromptBuilder } from './prompt-builder.js';
export type { PromptContext, PromptSection, ToolProtocol } from './prompt-context.js';
export * from './skills/index.js';
export * from './templates/index.js';
export * from './xml/index.js';
