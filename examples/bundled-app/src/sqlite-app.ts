// An app that keeps its sessions in SQLite, to be bundled with better-sqlite3 left out (a native module):
// one run saves a session, a second agent resumes it. The database file is the first argument; it prints
// one JSON line.
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { SqliteSessionStore } from '@agentloop/sessions';

const store = new SqliteSessionStore({ file: process.argv[2] ?? 'sessions.sqlite' });
const provider = new ScriptedProvider([{ toolCalls: [{ name: 'task_completion', arguments: { result: 'Saved.' } }] }]);
const first = await new DefaultAgent(provider, { session: { store, id: 'bundled' } }).run('Remember this.');
const resumed = await new DefaultAgent(provider, { session: { store, id: 'bundled' } }).openSession();
await store.close();
console.log(JSON.stringify({ exit: first.exit, resumedMessages: resumed.messages.map((message) => message.role) }));
