// A worker of the durable-run benchmark: serves the instant agent as the durable agent `bench`.
import '../../packages/restate/dist/node20/index.js';
import * as restate from '@restatedev/restate-sdk';
import { DefaultAgent } from '../../packages/core/dist/index.js';
import { durableAgent } from '../../packages/restate/dist/index.js';
import { InstantModel, noop } from './instant-agent.mjs';

const bench = durableAgent({
  name: 'bench',
  createAgent: ({ sessionId }) => new DefaultAgent(new InstantModel(), { sessionId, tools: [noop] }),
});
const port = await restate.serve({ services: [bench], port: Number(process.env.PORT) });
console.log(`listening on ${port}`);
