export { memoizeByMessage } from './memoize-by-message.js';
