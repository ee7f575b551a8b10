-- PostgreSQL twin of ../0005_shared_content.sql: content fixed for a whole game, stored once by the hash of its
-- text (TEXT, not JSONB: the text is what the hash names).
CREATE TABLE shared_content (
    hash        TEXT PRIMARY KEY,
    data        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);
