import type { PromptSection } from '../prompt-context.js';
import { xmlToolFormatTemplate, xmlToolsTemplate } from './xml-templates.js';

/** The id of the section with the XML tool-calling format and rules. */
export const XML_TOOL_FORMAT_SECTION_ID = 'xml-tool-format';
/** The id of the section that lists the tools for the XML protocol. */
export const XML_TOOLS_SECTION_ID = 'xml-tools';

/**
 * The XML protocol's sections: the calling format, then the tools. Both render nothing in native mode,
 * so they can stay in every section list; the default list has them after the loop guidance.
 */
export function xmlPromptSections(): PromptSection[] {
  return [
    { id: XML_TOOL_FORMAT_SECTION_ID, render: xmlToolFormatTemplate },
    { id: XML_TOOLS_SECTION_ID, render: xmlToolsTemplate },
  ];
}
