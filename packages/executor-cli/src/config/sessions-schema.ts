import { z } from 'zod';

/** The `[sessions]` table: where the command saves its sessions, for `--continue` and `--resume`. */
export const sessionsSchema = z.strictObject({
  /**
   * `sqlite` (the default: one database), `jsonl` (a file per session), `postgres` (a PostgreSQL database
   * shared by several machines), or `off` (nothing is saved).
   */
  store: z.enum(['sqlite', 'jsonl', 'postgres', 'off']).optional(),
  /**
   * The folder the sessions are saved in (`~/` allowed). Default: `sessions` in the user's data directory
   * (`~/.local/share/agentloop/sessions` on Linux). Read from the user's file only.
   */
  directory: z.string().trim().min(1, 'must not be empty').optional(),
  /**
   * The environment variable that holds the PostgreSQL connection string of `store = "postgres"`. Default
   * `DATABASE_URL`. Read from the user's file only.
   */
  url_env_var: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable (letters, digits and _)')
    .optional(),
});

/** The `[sessions]` table as written in a configuration file. */
export type SessionsConfig = z.infer<typeof sessionsSchema>;
