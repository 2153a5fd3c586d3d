import type { ElicitationValue, JsonSchema } from '@agentloop/tools';

/**
 * A form's answer with the schema's defaults in the fields the user left empty (absent, or an empty
 * text), so that a server gets the value its form showed as the default.
 */
export function applySchemaDefaults(
  schema: JsonSchema,
  content: Readonly<Record<string, ElicitationValue>>,
): Record<string, ElicitationValue> {
  const filled: Record<string, ElicitationValue> = { ...content };
  const properties = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  for (const [name, property] of Object.entries(properties)) {
    const value = filled[name];
    if ((value === undefined || value === '') && isValue(property?.default)) filled[name] = property.default;
  }
  return filled;
}

/** The required fields still empty once the defaults are in, in the schema's order. */
export function missingRequiredFields(
  schema: JsonSchema,
  content: Readonly<Record<string, ElicitationValue>>,
): string[] {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.filter(
    (name): name is string => typeof name === 'string' && (content[name] === undefined || content[name] === ''),
  );
}

function isValue(value: unknown): value is ElicitationValue {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}
