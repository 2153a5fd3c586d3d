import type { ToolAnnotations, ToolLookup } from '@agentloop/tools';
import { isLoopControlToolName } from '@agentloop/tools';

/** A call that does nothing by itself: each of the sub-agent's own calls is asked about by its policy. */
const SELF_GATED: ToolAnnotations = { readOnly: true, destructive: false, openWorld: false };

/**
 * What calling a sub-agent may do, for the caller's approval policy. A sub-agent with an approval policy
 * of its own asks about each of its calls itself, so calling it is asked about no more than a read-only
 * tool: otherwise the user would be asked twice for the same work. One without a policy may do whatever
 * its tools may: read-only when all of them are, destructive or open-world when any of them is (a tool
 * that leaves a field out counts as the cautious answer).
 */
export function subagentAnnotations(tools: ToolLookup, hasApprovalPolicy: boolean): ToolAnnotations {
  if (hasApprovalPolicy) return SELF_GATED;
  const own = tools
    .list()
    .map((registered) => registered.tool)
    .filter((tool) => !isLoopControlToolName(tool.name));
  return {
    readOnly: own.every((tool) => tool.annotations?.readOnly === true),
    destructive: own.some((tool) => tool.annotations?.destructive !== false),
    openWorld: own.some((tool) => tool.annotations?.openWorld !== false),
  };
}
