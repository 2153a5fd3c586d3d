export { formatXmlTool } from './format-xml-tool.js';
export type { XmlToolCall } from './format-xml-tool-call.js';
export { formatXmlToolCall } from './format-xml-tool-call.js';
export type { XmlToolResult } from './format-xml-tool-result.js';
export { formatXmlToolResult } from './format-xml-tool-result.js';
export { xmlNoToolCallReminder } from './xml-no-tool-call-reminder.js';
export { XML_TOOL_FORMAT_SECTION_ID, XML_TOOLS_SECTION_ID, xmlPromptSections } from './xml-prompt-sections.js';
export { xmlToolFormatTemplate, xmlToolsTemplate } from './xml-templates.js';
