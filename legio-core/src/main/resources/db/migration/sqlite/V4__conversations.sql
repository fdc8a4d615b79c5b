-- Conversations Legio holds for back-ends that keep none themselves (the HTTP APIs:
-- dev.legio.backend.http.ConversationStore). Ids and timestamps as in nuntii: canonical text.
--
-- One row per conversation: what every request starts with.
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    -- A summary of the conversation this one continues (previous_id), sent after the system prompt.
    summary TEXT,
    previous_id TEXT,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX idx_conversations_created_at ON conversations(created_at);

-- One row per completed turn, written in one statement: a turn is stored whole or not at all.
-- messages is a JSON array of the turn's messages (user, assistant, tool), in order.
CREATE TABLE conversation_turns (
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    messages TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_creation_tokens INTEGER NOT NULL,
    estimated INTEGER NOT NULL CHECK (estimated IN (0, 1)),
    context_tokens INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, turn)
) WITHOUT ROWID;
