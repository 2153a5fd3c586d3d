-- A PostgreSQL session database of schema version 1, as released. Written once and never regenerated: if
-- a change breaks the tests that read it, add a migration instead. The sessions are those of sessions-v1.sql;
-- frozen-v1 is held by a writer of another machine whose lease ran out.
BEGIN;
CREATE TABLE agentloop_schema (version INTEGER NOT NULL);
INSERT INTO agentloop_schema (version) VALUES (1);
  CREATE TABLE agentloop_sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    workspace TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    turn_count INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    usage TEXT NOT NULL,
    pending_question TEXT,
    forked_from TEXT,
    forked_at_message INTEGER,
    writer TEXT,
    lease_until BIGINT,
    fence BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX agentloop_sessions_by_update ON agentloop_sessions (updated_at DESC, id);
  CREATE INDEX agentloop_sessions_by_workspace ON agentloop_sessions (workspace, updated_at DESC, id);
  CREATE TABLE agentloop_messages (
    session_id TEXT NOT NULL REFERENCES agentloop_sessions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, position)
  );
  CREATE TABLE agentloop_turns (
    session_id TEXT NOT NULL REFERENCES agentloop_sessions (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    committed_at BIGINT NOT NULL,
    exit TEXT,
    model TEXT,
    usage TEXT NOT NULL,
    PRIMARY KEY (session_id, turn)
  );
INSERT INTO agentloop_sessions (id, title, model, workspace, created_at, updated_at, turn_count, message_count, usage, pending_question, forked_from, forked_at_message, writer) VALUES ('frozen-v1','The tests in packages/api fail since this morning. Find out why and fix it.','gpt-5','/home/ada/projects/shop',1795165200000,1795278600000,3,5,'{"inputTokens":14100,"outputTokens":770,"cacheReadTokens":3900,"cacheWriteTokens":5100,"reasoningTokens":64}',NULL,NULL,NULL,NULL);
INSERT INTO agentloop_sessions (id, title, model, workspace, created_at, updated_at, turn_count, message_count, usage, pending_question, forked_from, forked_at_message, writer) VALUES ('frozen-fork','A fork','claude-sonnet-4-5','/home/ada/projects/shop',1795334400000,1795334400000,1,2,'{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}','{"question":"Which registry mirror should I use?","suggestions":["npmmirror","none"]}','frozen-v1',2,'{"pid":999999999,"host":"gone-host.invalid","token":"00000000-0000-0000-0000-000000000000","since":"2026-11-22T08:00:00.000Z"}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-fork',0,1,'{"role":"user","content":[{"type":"text","text":"The tests in packages/api fail since this morning. Find out why and fix it."}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-fork',1,1,'{"role":"user","content":[{"type":"text","text":"<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>"}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-v1',0,3,'{"role":"user","content":[{"type":"text","text":"The tests in packages/api fail since this morning. Find out why and fix it."}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-v1',1,3,'{"role":"user","content":[{"type":"text","text":"<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>"}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-v1',2,3,'{"role":"user","content":[{"type":"text","text":"Try again"}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-v1',3,3,'{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call_ghi","toolName":"converse","arguments":{"message":"The network is still down."}}]}');
INSERT INTO agentloop_messages (session_id, position, turn, message) VALUES ('frozen-v1',4,3,'{"role":"tool","content":[{"type":"tool-result","toolCallId":"call_ghi","toolName":"converse","content":"Message delivered.","isError":false}]}');
INSERT INTO agentloop_turns (session_id, turn, committed_at, exit, model, usage) VALUES ('frozen-fork',1,1795334400000,NULL,NULL,'{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}');
INSERT INTO agentloop_turns (session_id, turn, committed_at, exit, model, usage) VALUES ('frozen-v1',1,1795165270000,'ask_question','claude-sonnet-4-5','{"inputTokens":4200,"outputTokens":310,"cacheReadTokens":0,"cacheWriteTokens":3900,"reasoningTokens":0}');
INSERT INTO agentloop_turns (session_id, turn, committed_at, exit, model, usage) VALUES ('frozen-v1',2,1795165500000,'task_completion','claude-sonnet-4-5','{"inputTokens":9100,"outputTokens":420,"cacheReadTokens":3900,"cacheWriteTokens":1200,"reasoningTokens":64}');
INSERT INTO agentloop_turns (session_id, turn, committed_at, exit, model, usage) VALUES ('frozen-v1',3,1795278600000,'converse','gpt-5','{"inputTokens":800,"outputTokens":40,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}');
UPDATE agentloop_sessions SET writer = '{"pid":4242,"host":"app-server-2.invalid","token":"11111111-1111-1111-1111-111111111111","since":"2026-11-21T16:00:00.000Z"}', lease_until = 1795278630000, fence = 3 WHERE id = 'frozen-v1';
COMMIT;
