/** A grant a user gave with `allow-session`, kept in the object's state so that later runs have it too. */
export interface SessionGrant {
  /** The tool it allows. */
  toolName: string;
  /** Only its calls whose command starts with this, when set. */
  commandPrefix?: string;
}
