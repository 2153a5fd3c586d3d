-- A session database of schema version 1, as released. Written once and never regenerated: if a change
-- breaks the tests that read it, add a migration instead.
BEGIN TRANSACTION;
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    workspace TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    turn_count INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    usage TEXT NOT NULL,
    pending_question TEXT,
    forked_from TEXT,
    forked_at_message INTEGER,
    writer TEXT
  );
INSERT INTO "sessions" VALUES('frozen-v1','The tests in packages/api fail since this morning. Find out why and fix it.','gpt-5','/home/ada/projects/shop',1795165200000,1795278600000,3,5,'{"inputTokens":14100,"outputTokens":770,"cacheReadTokens":3900,"cacheWriteTokens":5100,"reasoningTokens":64}',NULL,NULL,NULL,NULL);
INSERT INTO "sessions" VALUES('frozen-fork','A fork','claude-sonnet-4-5','/home/ada/projects/shop',1795334400000,1795334400000,1,2,'{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}','{"question":"Which registry mirror should I use?","suggestions":["npmmirror","none"]}','frozen-v1',2,'{"pid":999999999,"host":"gone-host.invalid","token":"00000000-0000-0000-0000-000000000000","since":"2026-11-22T08:00:00.000Z"}');
CREATE TABLE messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, position)
  ) WITHOUT ROWID;
INSERT INTO "messages" VALUES('frozen-fork',0,1,'{"role":"user","content":[{"type":"text","text":"The tests in packages/api fail since this morning. Find out why and fix it."}]}');
INSERT INTO "messages" VALUES('frozen-fork',1,1,'{"role":"user","content":[{"type":"text","text":"<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>"}]}');
INSERT INTO "messages" VALUES('frozen-v1',0,3,'{"role":"user","content":[{"type":"text","text":"The tests in packages/api fail since this morning. Find out why and fix it."}]}');
INSERT INTO "messages" VALUES('frozen-v1',1,3,'{"role":"user","content":[{"type":"text","text":"<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>"}]}');
INSERT INTO "messages" VALUES('frozen-v1',2,3,'{"role":"user","content":[{"type":"text","text":"Try again"}]}');
INSERT INTO "messages" VALUES('frozen-v1',3,3,'{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call_ghi","toolName":"converse","arguments":{"message":"The network is still down."}}]}');
INSERT INTO "messages" VALUES('frozen-v1',4,3,'{"role":"tool","content":[{"type":"tool-result","toolCallId":"call_ghi","toolName":"converse","content":"Message delivered.","isError":false}]}');
CREATE TABLE turns (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    committed_at INTEGER NOT NULL,
    exit TEXT,
    model TEXT,
    usage TEXT NOT NULL,
    PRIMARY KEY (session_id, turn)
  ) WITHOUT ROWID;
INSERT INTO "turns" VALUES('frozen-fork',1,1795334400000,NULL,NULL,'{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}');
INSERT INTO "turns" VALUES('frozen-v1',1,1795165270000,'ask_question','claude-sonnet-4-5','{"inputTokens":4200,"outputTokens":310,"cacheReadTokens":0,"cacheWriteTokens":3900,"reasoningTokens":0}');
INSERT INTO "turns" VALUES('frozen-v1',2,1795165500000,'task_completion','claude-sonnet-4-5','{"inputTokens":9100,"outputTokens":420,"cacheReadTokens":3900,"cacheWriteTokens":1200,"reasoningTokens":64}');
INSERT INTO "turns" VALUES('frozen-v1',3,1795278600000,'converse','gpt-5','{"inputTokens":800,"outputTokens":40,"cacheReadTokens":0,"cacheWriteTokens":0,"reasoningTokens":0}');
CREATE INDEX sessions_by_update ON sessions (updated_at DESC);
CREATE INDEX sessions_by_workspace ON sessions (workspace, updated_at DESC);
COMMIT;
PRAGMA user_version = 1;
