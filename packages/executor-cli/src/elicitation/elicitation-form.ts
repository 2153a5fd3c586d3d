import type { ElicitationValue } from '@agentloop/core';
import type { JsonSchema } from '@agentloop/spec';

/** One choice of an enum field: the value sent, and the label shown. */
export interface FieldOption {
  value: string;
  label: string;
}

/** A field of an elicitation form, as the terminal asks for it. */
export type FormField = {
  /** The property's name, sent back as the key. */
  name: string;
  /** What the user sees: the property's title, else its name. */
  label: string;
  description?: string;
  required: boolean;
} & (
  | { kind: 'text'; format?: string; minLength?: number; maxLength?: number; default?: string }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'choice'; options: FieldOption[]; default?: string }
  | { kind: 'choices'; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
);

type Property = Record<string, unknown>;

/**
 * The fields of an elicitation's form, in the schema's order: a text (with its format and length),
 * a number or integer (with its range), a boolean, a single choice (`enum`, `oneOf` of `const`s, the
 * older `enumNames`) or several choices (an array of those). A property of another type cannot be
 * asked for on a terminal: it is left out, and named in `skipped`.
 */
export function formFields(schema: JsonSchema): { fields: FormField[]; skipped: string[] } {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields: FormField[] = [];
  const skipped: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = toField(name, property ?? {}, required.has(name));
    if (field) fields.push(field);
    else skipped.push(name);
  }
  return { fields, skipped };
}

function toField(name: string, property: Property, required: boolean): FormField | undefined {
  const base = {
    name,
    label: typeof property.title === 'string' ? property.title : name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required,
  };
  const options = choiceOptions(property);
  if (options) return { ...base, kind: 'choice', options, ...stringDefault(property.default) };
  switch (property.type) {
    case 'string':
      return {
        ...base,
        kind: 'text',
        ...(typeof property.format === 'string' ? { format: property.format } : {}),
        ...numberField('minLength', property.minLength),
        ...numberField('maxLength', property.maxLength),
        ...stringDefault(property.default),
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        ...numberField('minimum', property.minimum),
        ...numberField('maximum', property.maximum),
        ...numberField('default', property.default),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        ...(typeof property.default === 'boolean' ? { default: property.default } : {}),
      };
    case 'array': {
      const items = choiceOptions((property.items ?? {}) as Property);
      if (!items) return undefined;
      const defaults = Array.isArray(property.default)
        ? property.default.filter((value): value is string => typeof value === 'string')
        : undefined;
      return {
        ...base,
        kind: 'choices',
        options: items,
        ...numberField('minItems', property.minItems),
        ...numberField('maxItems', property.maxItems),
        ...(defaults ? { default: defaults } : {}),
      };
    }
    default:
      return undefined;
  }
}

function choiceOptions(property: Property): FieldOption[] | undefined {
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return property.enum
      .filter((value): value is string => typeof value === 'string')
      .map((value, index) => ({ value, label: typeof names[index] === 'string' ? names[index] : value }));
  }
  const variants = Array.isArray(property.oneOf)
    ? property.oneOf
    : Array.isArray(property.anyOf)
      ? property.anyOf
      : undefined;
  if (!variants) return undefined;
  const options = (variants as Property[]).flatMap((variant) =>
    typeof variant?.const === 'string'
      ? [{ value: variant.const, label: typeof variant.title === 'string' ? variant.title : variant.const }]
      : [],
  );
  return options.length > 0 ? options : undefined;
}

function stringDefault(value: unknown): { default?: string } {
  return typeof value === 'string' ? { default: value } : {};
}

function numberField<Key extends string>(key: Key, value: unknown): { [K in Key]?: number } {
  return (typeof value === 'number' && Number.isFinite(value) ? { [key]: value } : {}) as { [K in Key]?: number };
}

/** What a field's typed text means: its value, nothing (left empty), or why it is wrong. */
export type FieldInput = { value: ElicitationValue } | { empty: true } | { error: string };

/**
 * Reads what the user typed into a text or number field. Empty input is `empty` for an optional field
 * (the schema's default then applies) and an error for a required one without a default.
 */
export function readFieldInput(field: FormField, typed: string): FieldInput {
  const text = typed.trim();
  if (text === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: `${field.label} is required.` } : { empty: true };
  }
  if (field.kind === 'number') {
    const value = Number(text);
    if (!Number.isFinite(value)) return { error: `${field.label} must be a number, like 42 or 3.5.` };
    if (field.integer && !Number.isInteger(value)) return { error: `${field.label} must be a whole number.` };
    if (field.minimum !== undefined && value < field.minimum) {
      return { error: `${field.label} must be at least ${field.minimum}.` };
    }
    if (field.maximum !== undefined && value > field.maximum) {
      return { error: `${field.label} must be at most ${field.maximum}.` };
    }
    return { value };
  }
  if (field.kind !== 'text') return { value: text };
  if (field.minLength !== undefined && text.length < field.minLength) {
    return { error: `${field.label} needs at least ${field.minLength} characters.` };
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    return { error: `${field.label} takes at most ${field.maxLength} characters.` };
  }
  const formatProblem = field.format ? checkFormat(field.format, text) : undefined;
  return formatProblem ? { error: `${field.label} ${formatProblem}` } : { value: text };
}

/** Checks the formats MCP's elicitation schemas allow; another format is taken as it is. */
function checkFormat(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? undefined : 'must be an email address, like ada@example.com.';
    case 'uri':
      return URL.canParse(text) ? undefined : 'must be a URL, like https://example.com.';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'must be a date, like 2025-01-31.';
    case 'date-time':
      return Number.isNaN(Date.parse(text)) ? 'must be a date and time, like 2025-01-31T09:30:00Z.' : undefined;
    default:
      return undefined;
  }
}

/** Checks a multiple choice against the field's item limits; undefined when it fits. */
export function checkChoices(field: FormField & { kind: 'choices' }, chosen: readonly string[]): string | undefined {
  if (field.minItems !== undefined && chosen.length < field.minItems) {
    return `${field.label}: choose at least ${field.minItems}.`;
  }
  if (field.maxItems !== undefined && chosen.length > field.maxItems) {
    return `${field.label}: choose at most ${field.maxItems}.`;
  }
  return undefined;
}
