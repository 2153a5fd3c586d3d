export { isStandardSchema, isZod3Schema, isZod4Schema, toJsonSchema } from './to-json-schema.js';
export type { ArgumentValidation, ArgumentValidator } from './validate-arguments.js';
export { createArgumentValidator } from './validate-arguments.js';
