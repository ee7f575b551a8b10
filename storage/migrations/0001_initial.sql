-- Games (lobbies included), their append-only action logs, deadlines and per-server settings.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    options     TEXT    NOT NULL,
    seed        TEXT    NOT NULL,
    seats       TEXT    NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    moves       INTEGER NOT NULL DEFAULT 0,
    state       TEXT,
    meta        TEXT    NOT NULL DEFAULT '{}',
    outcome     TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- One lobby or running game per channel or thread.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE actions (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    seq             INTEGER NOT NULL,
    seat            INTEGER NOT NULL,
    action          TEXT    NOT NULL,
    source          TEXT    NOT NULL CHECK (source IN ('player', 'bot', 'timer')),
    user_id         INTEGER,
    interaction_id  INTEGER,
    created_at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE UNIQUE INDEX actions_by_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL;

CREATE TABLE deadlines (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    kind     TEXT    NOT NULL,
    seat     INTEGER,
    due_at   TEXT    NOT NULL,
    data     TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX deadlines_by_due ON deadlines (due_at);
CREATE INDEX deadlines_by_game ON deadlines (game_id);

CREATE TABLE guild_settings (
    guild_id  INTEGER NOT NULL,
    key       TEXT    NOT NULL,
    value     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
);
