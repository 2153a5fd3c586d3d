import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { modelFacingText } from '../sanitize/model-facing-text.js';

/** One of a server's resources (`resources/list`). */
export interface McpResourceSummary {
  /** Its URI, which `readResource` takes. */
  readonly uri: string;
  /** Its name on the server. */
  readonly name: string;
  /** A display name, where the server gave one. */
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One of a server's resource templates (`resources/templates/list`): URIs it can read beyond its list. */
export interface McpResourceTemplateSummary {
  /** An RFC 6570 URI template, e.g. `file:///{path}`. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A resource as the agent shows it: names and prose cleaned of escape sequences and controls. */
export function toResourceSummary(resource: Resource): McpResourceSummary {
  return {
    uri: resource.uri,
    ...describedFields(resource),
  };
}

/** A resource template as the agent shows it, cleaned like a resource. */
export function toResourceTemplateSummary(template: ResourceTemplate): McpResourceTemplateSummary {
  return {
    uriTemplate: modelFacingText(template.uriTemplate),
    ...describedFields(template),
  };
}

function describedFields(item: Resource | ResourceTemplate): {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
} {
  return {
    name: modelFacingText(item.name),
    ...(item.title ? { title: modelFacingText(item.title) } : {}),
    ...(item.description ? { description: modelFacingText(item.description) } : {}),
    ...(item.mimeType ? { mimeType: modelFacingText(item.mimeType) } : {}),
  };
}
