-- The usage ledger (dev.legio.usage.UsageLedger): one row per turn of every session, append-only,
-- pruned by the daily cleanup. Ids and timestamps as in nuntii (canonical text, so text order is
-- time order and the first 10 characters are the UTC day). Costs are in nano-USD (1e-9 USD), as
-- integers, so sums are exact; NULL is an unknown cost.
CREATE TABLE usage_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    session_id TEXT NOT NULL,
    owner TEXT NOT NULL,
    session_key TEXT,
    agent TEXT,
    task_run_id TEXT,
    backend TEXT NOT NULL,
    model TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    cost_nanos INTEGER,
    price_table_cost_nanos INTEGER,
    reported_cost_nanos INTEGER,
    cost_source TEXT NOT NULL CHECK (cost_source IN ('reported', 'price-table', 'local', 'unknown')),
    duration_ms INTEGER,
    outcome TEXT NOT NULL CHECK (outcome IN ('completed', 'failed'))
);
CREATE INDEX idx_usage_ledger_at ON usage_ledger(at);
CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id);
