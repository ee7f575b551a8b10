-- The Floor's server content: a server's own categories (the rulebook's blank cards) and the answers its
-- players judged valid, added to a category's list (a built-in category id, or 'server_<id>' for a row of
-- floor_categories). Both are per server and per content language ('en', 'pl'); a game gets them as its
-- `content` option when its lobby opens. JSON columns hold lists of strings.
CREATE TABLE floor_categories (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    lang        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    flags       TEXT    NOT NULL DEFAULT '[]',  -- JSON list of rules.the_floor.content.FLAGS
    answers     TEXT    NOT NULL,               -- JSON list of display forms
    created_by  INTEGER,                        -- a Discord user id
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, lang, name)
);

CREATE TABLE floor_answers (
    guild_id    INTEGER NOT NULL,
    lang        TEXT    NOT NULL,
    category    TEXT    NOT NULL,   -- a built-in category id, or 'server_<floor_categories.id>'
    answer      TEXT    NOT NULL,   -- the display form as added
    folded      TEXT    NOT NULL,   -- rules.the_floor.answers.fold(answer): one row per distinct answer
    added_by    INTEGER,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, lang, category, folded)
);
