-- PostgreSQL twin of ../0011_web_slugs.sql: a random slug per object the web site serves (see there).
CREATE TABLE web_slugs (
    slug        TEXT        PRIMARY KEY,
    kind        TEXT        NOT NULL CHECK (kind IN ('guild', 'tournament', 'game', 'player')),
    guild_id    BIGINT      NOT NULL,
    object_id   BIGINT      NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (kind, guild_id, object_id)
);
