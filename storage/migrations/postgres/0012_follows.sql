-- PostgreSQL twin of ../0012_follows.sql: members following a game as spectators (see there).
CREATE TABLE follows (
    game_id      BIGINT      NOT NULL,
    user_id      BIGINT      NOT NULL,
    guild_id     BIGINT      NOT NULL,
    mode         TEXT        NOT NULL CHECK (mode IN ('thread', 'channel', 'dm')),
    created_at   TIMESTAMPTZ NOT NULL,
    last_sent_at TIMESTAMPTZ,
    sent_moves   BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX follows_by_user ON follows (user_id, guild_id);
