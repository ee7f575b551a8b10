-- PostgreSQL twin of ../0008_results_ratings.sql: results and ratings (REAL there is DOUBLE PRECISION here: SQLite's
-- REAL is 8 bytes).
CREATE TABLE results (
    game_id      BIGINT  NOT NULL REFERENCES games (id),
    user_id      BIGINT  NOT NULL,
    guild_id     BIGINT,
    game         TEXT    NOT NULL,
    seat         BIGINT  NOT NULL,
    place        BIGINT  NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    score        DOUBLE PRECISION,
    rated        BOOLEAN NOT NULL,
    before       DOUBLE PRECISION,
    after        DOUBLE PRECISION,
    finished_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX results_by_user ON results (user_id, finished_at);
CREATE INDEX results_by_guild_game ON results (guild_id, game, finished_at);

CREATE TABLE ratings (
    scope       BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       BIGINT  NOT NULL,
    wins        BIGINT  NOT NULL,
    draws       BIGINT  NOT NULL,
    losses      BIGINT  NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope, game, user_id)
);
CREATE INDEX ratings_board ON ratings (scope, game, (mu - 3 * sigma) DESC);
