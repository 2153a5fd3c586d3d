import { z } from 'zod';

/** The longest idle time, in seconds: 24 days, since Node's timers hold at most 2**31 - 1 ms. */
const MAX_IDLE_SECONDS = 24 * 24 * 60 * 60;

/** The `[serve]` table: where `agentloop serve` listens and who may call it. */
export const serveSchema = z.strictObject({
  /** The TCP port (default 4680); 0 picks a free one. */
  port: z
    .int('must be a whole number')
    .min(0, 'must be a port number from 0 to 65535')
    .max(65535, 'must be a port number from 0 to 65535')
    .optional(),
  /**
   * The address to listen on (default `127.0.0.1`, this machine only). Another address needs a configured
   * token (`token_env_var`, or `--token`). Read from the user's file only.
   */
  host: z.string().trim().min(1, 'must not be empty').optional(),
  /**
   * The environment variable that holds the bearer token (at least 16 characters); without it the token
   * is random at each start. Read from the user's file only.
   */
  token_env_var: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable (letters, digits and _)')
    .optional(),
  /**
   * Browser origins (`https://app.example.com`) whose pages may call the API; none by default. Read from
   * the user's file only.
   */
  allowed_origins: z
    .array(
      z
        .url({ protocol: /^https?$/, error: 'must be an origin such as https://app.example.com' })
        .refine((url) => new URL(url).origin === url.replace(/\/$/, ''), {
          error: 'must be an origin alone (scheme, host and port), such as https://app.example.com, without a path',
        }),
    )
    .optional(),
  /**
   * Seconds a session's agent is kept after its last run (default 900, 15 minutes): then it ends, with its
   * plugins and MCP server processes, and the session's next run starts them again. 0 keeps every
   * session's agent until the server stops.
   */
  session_idle_timeout: z
    .number('must be a number of seconds')
    .nonnegative('must be 0 or more')
    .max(
      MAX_IDLE_SECONDS,
      `must be at most ${MAX_IDLE_SECONDS} seconds (24 days); 0 keeps agents until the server stops`,
    )
    .optional(),
});

/** The `[serve]` table as written in a configuration file. */
export type ServeConfig = z.infer<typeof serveSchema>;
