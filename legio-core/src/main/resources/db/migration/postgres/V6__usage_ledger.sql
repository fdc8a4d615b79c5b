-- The usage ledger (dev.legio.usage.UsageLedger): one row per turn of every session, append-only,
-- pruned by the daily cleanup. Costs are in nano-USD (1e-9 USD), as integers, so sums are exact;
-- NULL is an unknown cost.
CREATE TABLE usage_ledger (
    id BIGSERIAL PRIMARY KEY,
    at TIMESTAMPTZ NOT NULL,
    session_id UUID NOT NULL,
    owner TEXT NOT NULL,
    session_key TEXT,
    agent TEXT,
    task_run_id TEXT,
    backend TEXT NOT NULL,
    model TEXT,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_write_tokens BIGINT NOT NULL,
    cost_nanos BIGINT,
    price_table_cost_nanos BIGINT,
    reported_cost_nanos BIGINT,
    cost_source TEXT NOT NULL CHECK (cost_source IN ('reported', 'price-table', 'local', 'unknown')),
    duration_ms BIGINT,
    outcome TEXT NOT NULL CHECK (outcome IN ('completed', 'failed'))
);
CREATE INDEX idx_usage_ledger_at ON usage_ledger(at);
CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id);
