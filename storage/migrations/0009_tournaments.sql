-- Tournaments: one row each, the whole tournament (league/tournament.py) as JSON in `data`, written with a version
-- check like a game; `due_at` is its next deadline (registration close or the current round's end), so the
-- scheduler finds due tournaments through an index. Each game a tournament creates is linked to it.
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    organizer_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('registration', 'running', 'finished', 'cancelled')),
    data          TEXT    NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,
    due_at        TEXT,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_due ON tournaments (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE tournament_games (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id),
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL,
    table_index    INTEGER NOT NULL
);
CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round);
