export { compactionRequest, compactionSummaryMessage, compactionSystemPrompt } from './compaction-prompt.js';
export { agentLoopGuidanceTemplate, chainOfThoughtTemplate, systemCapabilitiesTemplate } from './core-templates.js';
export { wrapUpNotice } from './wrap-up-notice.js';
