// The opt-in entry for Node 20: `import '@agentloop/restate/node20'` before the app serves its durable
// agents. The package's main entry registers nothing on import (`sideEffects: false`); this one does, on
// purpose, and only what Node 20 lacks.
import { installPromiseWithResolvers } from './install-promise-with-resolvers.js';

installPromiseWithResolvers();

export { installPromiseWithResolvers };
