export {
  checkChoices,
  type FieldInput,
  type FieldOption,
  type FormField,
  formFields,
  readFieldInput,
} from './elicitation-form.js';
export { clackElicitationPrompter, type ElicitationPrompter } from './elicitation-prompter.js';
