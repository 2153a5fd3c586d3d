// The scripted model behind the session shown in the README: a local OpenAI-compatible server that
// plays one conversation. Run it, then point agentloop at the URL it prints (see README.md).
//
//   node packages/executor-cli/src/test-support/demo-server.mjs
import { startScriptedOpenAIServer } from './scripted-openai-server.mjs';

const server = await startScriptedOpenAIServer([
  {
    reasoning: 'The user wants to know what this package is. I will list the files, then read package.json.',
    text: 'Let me look around first.',
    toolCalls: [{ name: 'list_files', arguments: { path: '.' } }],
    delayMs: 15,
  },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'package.json' } }], delayMs: 15 },
  {
    toolCalls: [
      {
        name: 'task_completion',
        arguments: {
          result:
            '**@agentloop/executor-cli** is the CLI executor of agentloop and the `agentloop` command.\n\nIt depends on:\n\n- `commander` for the command line\n- `@clack/prompts` for questions\n- `marked` and `marked-terminal` for Markdown\n- `smol-toml` and `env-paths` for configuration',
          artifacts: ['package.json'],
        },
      },
    ],
    delayMs: 15,
  },
  {
    toolCalls: [
      {
        name: 'ask_question',
        arguments: {
          question: 'Where should the configuration go?',
          suggestions: ['My user configuration', 'This project only'],
        },
      },
    ],
  },
  {
    toolCalls: [
      {
        name: 'converse',
        arguments: {
          message: 'Run `agentloop config init --project`: it writes a commented `.agentloop/config.toml` here.',
        },
      },
    ],
  },
]);
console.log(server.url);
process.on('SIGINT', () => server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
