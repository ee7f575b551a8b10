-- A stored game whose row no longer loads (bad JSON, a state its rules refuse) is marked here rather than
-- changed: the row stays as it was for an operator to export or repair, every other game keeps working, and its
-- players are told once (notified_at). Closing it by /abort sets the game's status directly.
CREATE TABLE damaged_games (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    reason       TEXT    NOT NULL,
    found_at     TEXT    NOT NULL,
    notified_at  TEXT
);
