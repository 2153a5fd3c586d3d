import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError } from '../errors/http-error.js';

/**
 * Reads a request's JSON body and validates it against `schema`. Throws a 400 HttpError that says what was
 * wrong (each field at fault and why) when the body is not JSON or not of the schema's shape.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
  what: string,
): Promise<z.output<Schema>> {
  let body: unknown;
  try {
    body = await context.req.json();
  } catch (error) {
    if (HttpError.isInstance(error)) throw error;
    throw new HttpError(`The body of ${what} is not JSON: send a JSON object with Content-Type: application/json.`, {
      code: 'invalid_body',
      statusCode: 400,
    });
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'the body'}: ${issue.message}`)
    .join('; ');
  throw new HttpError(`The body of ${what} is not valid: ${problems}.`, { code: 'invalid_body', statusCode: 400 });
}
