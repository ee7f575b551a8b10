-- Content fixed for a whole game (a Game's `shared_fields`: The Floor's server categories and answers, up to
-- megabytes) is stored once here, named by the SHA-256 of its canonical JSON, and a game's options and state
-- reference it as {"$shared": "<hash>"} instead of carrying a copy that every move would rewrite. Games with the
-- same content share one row. Rows are never changed; nothing removes them (a finished game's record needs them).
CREATE TABLE shared_content (
    hash        TEXT PRIMARY KEY,   -- hex SHA-256 of data
    data        TEXT NOT NULL,      -- the value's canonical JSON (sorted keys)
    created_at  TEXT NOT NULL
);
