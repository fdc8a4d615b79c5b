-- Conversations Legio holds for back-ends that keep none themselves (the HTTP APIs:
-- dev.legio.backend.http.ConversationStore), with the native types of nuntii.
--
-- One row per conversation: what every request starts with.
CREATE TABLE conversations (
    id UUID PRIMARY KEY,
    owner TEXT NOT NULL,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    -- A summary of the conversation this one continues (previous_id), sent after the system prompt.
    summary TEXT,
    previous_id UUID,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX idx_conversations_created_at ON conversations(created_at);

-- One row per completed turn, written in one statement: a turn is stored whole or not at all.
-- messages is a JSON array of the turn's messages (user, assistant, tool), in order.
CREATE TABLE conversation_turns (
    conversation_id UUID NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    messages JSONB NOT NULL,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_creation_tokens BIGINT NOT NULL,
    estimated BOOLEAN NOT NULL,
    context_tokens BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (conversation_id, turn)
);
