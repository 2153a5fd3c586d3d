import { z } from 'zod';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * The `[skills]` table: which skills the agent gets, beside those found in the usual folders (the
 * project's `.agents/skills`, `.agentloop/skills` and `.claude/skills`; the user's `skills` in the
 * configuration directory, `~/.agents/skills` and `~/.claude/skills`).
 */
export const skillsSchema = z.strictObject({
  /** false: no skills at all, and no `load_skill` tool (default true). */
  enabled: z.boolean().optional(),
  /** More folders of skills: paths relative to this file, or absolute (`~/` allowed). */
  folders: z.array(nonEmpty).optional(),
  /** Names of skills to leave out, wherever they are found. */
  disabled: z.array(nonEmpty).optional(),
});

/** The `[skills]` table as written in a configuration file. */
export type SkillsConfig = z.infer<typeof skillsSchema>;

/** The `[skills]` tables of both files, merged. */
export interface LoadedSkillsConfig {
  /** The nearest file's `enabled`; absent: true. */
  enabled?: boolean;
  /** The folders both files add, absolute, each with whether the project's file named it (so it needs trust). */
  folders: { path: string; project: boolean }[];
  /** The names both files leave out. */
  disabled: string[];
}
