-- PostgreSQL twin of ../0004_damaged_games.sql: games whose row no longer loads, marked rather than changed.
CREATE TABLE damaged_games (
    game_id      BIGINT  PRIMARY KEY REFERENCES games (id),
    reason       TEXT    NOT NULL,
    found_at     TIMESTAMPTZ NOT NULL,
    notified_at  TIMESTAMPTZ
);
