import type { JsonSchema } from '@agentloop/spec';

/**
 * A request for input from the user, made by a tool while it runs (an MCP server's
 * `elicitation/create`). `form` asks for the fields of `schema`; `url` asks the user to open `url` (a
 * sign-in or a payment page) and say whether they did.
 */
export type ElicitationRequest = ElicitationFormRequest | ElicitationUrlRequest;

/** Fields the user fills in. */
export interface ElicitationFormRequest {
  readonly mode: 'form';
  /** Who asks, for the user: an MCP server's name. */
  readonly server?: string;
  /** What the asker wants and why, shown above the form. */
  readonly message: string;
  /**
   * The form: a JSON Schema object whose properties are flat fields (string, number, integer, boolean,
   * or a string enum), with `required`, `default`, `title` and `description` as the user sees them.
   */
  readonly schema: JsonSchema;
  /** Aborted when the asker gives up on the answer. */
  readonly signal?: AbortSignal;
}

/** A page the user opens outside the agent. */
export interface ElicitationUrlRequest {
  readonly mode: 'url';
  /** Who asks, for the user: an MCP server's name. */
  readonly server?: string;
  /** Why the user should open the page. */
  readonly message: string;
  /** The page to open. */
  readonly url: string;
  /** Aborted when the asker gives up on the answer. */
  readonly signal?: AbortSignal;
}

/** A value of a form's field. */
export type ElicitationValue = string | number | boolean | readonly string[];

/**
 * The user's answer: the form's values (`{}` for a URL the user agreed to open), a refusal (`decline`),
 * or a dismissal without a choice (`cancel`).
 */
export type ElicitationResult =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, ElicitationValue>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };
