-- Results and ratings (storage/league.py). One row per human seat of every finished game with 2+ humans, written in
-- the transaction of the game's final save; the primary key makes a second write of the same game impossible.
-- place: 1 = first, tied seats share (1, 1, 3); outcome: win (first alone, or with teammates only), draw (first
-- shared with another side), loss. before/after: the display rating in the game's server (the global one for a
-- game outside a server), NULL when the game was not rated.
CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER,
    game         TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    score        REAL,
    rated        INTEGER NOT NULL,
    before       REAL,
    after        REAL,
    finished_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX results_by_user ON results (user_id, finished_at);
CREATE INDEX results_by_guild_game ON results (guild_id, game, finished_at);

-- OpenSkill ratings per scope (a guild id; 0 = every server together) and game. wins/draws/losses count rated
-- games only.
CREATE TABLE ratings (
    scope       INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (scope, game, user_id)
);
-- The leaderboard's order: the conservative rating (what the display shows), best first.
CREATE INDEX ratings_board ON ratings (scope, game, (mu - 3 * sigma) DESC);
