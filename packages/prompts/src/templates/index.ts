export { agentLoopGuidanceTemplate, chainOfThoughtTemplate, systemCapabilitiesTemplate } from './core-templates.js';
