export { nonBlank } from './non-blank.js';
