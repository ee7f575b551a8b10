-- The Floor Plan daily challenge (/floorplan daily): one attempt per player per UTC day, the game it is played
-- in, and its result once the game is over. A row is written when the attempt starts (score NULL), so a
-- second /floorplan daily the same day finds it: it resumes the game or shows the result, never a second one.
CREATE TABLE daily_results (
    id           INTEGER PRIMARY KEY,
    day          TEXT    NOT NULL,          -- the UTC date, ISO 8601 (2026-01-01)
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER,                   -- the server it was started from (its server leaderboard)
    name         TEXT    NOT NULL DEFAULT '',  -- the player's display name when it started (for leaderboards)
    game_id      INTEGER REFERENCES games (id),
    score        INTEGER,                   -- NULL until the game is over
    rating       TEXT,
    started_at   TEXT    NOT NULL,
    finished_at  TEXT,
    UNIQUE (day, user_id)
);
CREATE INDEX daily_results_by_day ON daily_results (day, score DESC, finished_at);
CREATE INDEX daily_results_by_guild ON daily_results (day, guild_id, score DESC, finished_at);
