import { z } from 'zod';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * One `[agents.NAME]` table: an agent the session's agent can call as a tool named NAME, on a task, in a
 * conversation of its own.
 */
export const agentEntrySchema = z.strictObject({
  /** What the agent does and when to call it, for the session's model. */
  description: nonEmpty,
  /** Its model, or `provider:model`. Default: the one the session started with (`/model` leaves it). */
  model: nonEmpty.optional(),
  /** Its instructions, placed in its system prompt. */
  system_prompt: z.string().optional(),
  /** The names of the built-in tools it gets (`read_file`, `search_files`, …). Default: none. */
  tools: z.array(nonEmpty).optional(),
});

/**
 * The `[agents]` tables by name: the names are the tools' names. The name is checked beside the table,
 * not as the record's key schema, whose failure zod reports without the reason.
 */
export const agentsSchema = z.record(z.string(), agentEntrySchema).superRefine((agents, context) => {
  for (const name of Object.keys(agents)) {
    if (/^[A-Za-z0-9_-]+$/.test(name)) continue;
    context.addIssue({
      code: 'custom',
      path: [name],
      message: 'is not a usable agent name: agent names use letters, digits, "_" and "-", as tool names do',
    });
  }
});

/** An `[agents.NAME]` table as written in a configuration file. */
export type AgentEntry = z.infer<typeof agentEntrySchema>;
