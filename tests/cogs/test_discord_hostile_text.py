"""Hostile text through the real discord.py paths: a player whose name holds markdown, a masked link,
@everyone, a bidi override and 300 characters; The Floor categories and answers made of the same; a duel answer
``**@everyone** [x](http://evil)``; and 6,000-character inputs. Whatever is posted shows such text escaped and
clipped, fits Discord's limits, pings nobody it should not, and the images still render."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from typing import Any

import discord.ext.test as dpytest
import pytest
from discord.ext import commands
from discord.ext.test import backend as back

from cogs.utils.text import BIDI, ZERO_WIDTH
from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import challenge, letters, options_of, runner
from tests.cogs.test_discord_the_floor_admin import floor, only
from tests.discord_harness import GUILD_ID, USERS, Harness, Sent, check_embeds, check_png, table_of, user_of

NAME = "\u202e**@everyone** [x](http://evil) @here <@&740000000000000001>" + "N" * 300
ANSWER = "**@everyone** [x](http://evil)"
LONG = 6000
PLAYERS = set(USERS.values())


def rename(h: Harness, user: str, nick: str) -> None:
    """The member's server nickname, as Discord would send it in messages and interactions from now on."""
    h.members[user] = back.update_member(h.members[user], nick=nick)


def invisible(text: str) -> list[str]:
    return [c for c in text if c in BIDI or c in ZERO_WIDTH or
            (unicodedata.category(c) in ("Cc", "Cf") and c != "\n")]


def labels(s: Sent) -> list[str]:
    """What a client shows of a message's components: plain text, no markdown (so clean, never escaped)."""
    out = []
    for c in _components(s.components):
        out += [c.get("label", ""), c.get("placeholder", "")]
        out += [o.get("label", "") + " " + o.get("description", "") for o in c.get("options", [])]
    return out


def _components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for c in components:
        found.append(c)
        found += _components(c.get("components", []))
    return found


def assert_shown_safely(h: Harness) -> None:
    """Every message, edit and thread the bot made: user text only escaped and clipped, within Discord's limits,
    pinging only players (never @everyone, @here or a role)."""
    bot_made = {("@", uid) for uid in PLAYERS} | {("#", int(t["id"])) for t in h.threads}
    for s in [*h.sent, *h.edits]:
        assert len(s.content or "") <= 2000, len(s.content or "")
        check_embeds(s.embeds)
        text = s.text  # content and embeds: markdown
        assert not invisible(text), (text[:200], invisible(text))
        assert "**@everyone**" not in text and "http://" not in text, text[:300]
        assert not re.search(r"(?<!\\)@(everyone|here)|(?<!\\)\[[^\]\n]*\]\(", text), text[:300]
        for kind, target in re.findall(r"(?<!\\)<(@&|@|#)(\d+)>", text):  # only the bot's own mentions
            assert (kind, int(target)) in bot_made, (kind, target, text[:300])
        for label in [text, *labels(s)]:
            assert not invisible(label) and not re.search("N{41,}", label), label[:200]
        assert_pings_only_players(s.payload)
    for thread in h.threads:
        assert not invisible(thread["name"]) and len(thread["name"]) <= 100 and "N" * 41 not in thread["name"]
    for png in h.images():
        check_png(png)


def assert_pings_only_players(payload: dict[str, Any]) -> None:
    allowed = payload.get("allowed_mentions")
    if allowed is None:  # the bot's default: AllowedMentions.none()
        return
    assert not {"everyone", "roles"} & set(allowed.get("parse", [])), allowed
    assert not allowed.get("roles"), allowed
    assert {int(u) for u in allowed.get("users", [])} <= PLAYERS, allowed


async def begin(h: Harness, game: str, joiners: tuple[str, ...], options: str) -> int:
    """/play, Join clicks and Start, each on the lobby message as it is now; returns the game's channel."""
    await h.slash("play", "alice", game=game, options=options)
    channel_id = h.with_button(":lobby:join:").channel_id
    for user in joiners:
        await h.click(h.with_button(":lobby:join:"), ":lobby:join:", user)
    await h.click(h.with_button(":lobby:start:"), ":lobby:start:", "alice")
    return channel_id


async def draft(h: Harness, channel_id: int) -> None:
    """Every human picks the first category of their private menu until the categories are placed."""
    for _ in range(200):
        table = await table_of(h, channel_id)
        if table.state.phase != "draft":
            return
        user = user_of(table.seats[table.humans_to_move()[0]].user_id)
        menu = (await h.click(h.with_button("the_floor:pick:"), ":pick:", user))[-1]
        await h.select(menu, options_of(menu)[:1], user)
    raise AssertionError("the draft did not end")


async def say(h: Harness, text: str, user: str, channel: Any = None) -> list[Sent]:
    """A user's message; a command error the bot answered is not the test's concern (dpytest re-raises it)."""
    start = len(h.sent)
    with contextlib.suppress(commands.CommandError):
        await dpytest.message(text, channel=h.channel(channel), member=h.members[user])
    await h.settle()
    return h.sent[start:]


def longest_run(text: str, char: str) -> int:
    return max((len(m) for m in re.findall(f"{re.escape(char)}+", text)), default=0)


# --- a hostile player name ---------------------------------------------------------------------------------


async def test_a_hostile_name_is_escaped_and_clipped_in_lobby_status_turn_pings_and_images(harness: Harness) -> None:
    h = harness
    rename(h, "bob", NAME)
    rename(h, "alice", NAME[:40] + "A")  # the host's name goes into the thread's name
    channel_id = await begin(h, "flying_blades", ("bob",), "cards=none")
    table = await table_of(h, channel_id)
    assert "\u202e" not in table.seats[1].name and len(table.seats[1].name) <= 32  # stored clean
    await h.slash("board", "alice", channel_id)
    await h.pass_time(seconds=60)  # the status message's throttled edits
    seat = sorted(table.to_move())[0]
    user = "alice" if seat == 0 else "bob"
    legal = table.rules.legal_actions(table.state, seat)
    await h.slash("move", user, channel_id, action=next(a for a in legal if a.startswith("attack")))
    await h.slash("games", "alice")
    await h.say("!resign confirm", "bob", channel_id)
    await h.pass_time(seconds=60)
    shown = [s.text for s in h.public()]
    assert any("\\*\\*\\@everyone\\*\\* \\[x\\](http\\://evil)" in x for x in shown), "shown, escaped"
    turn = [s for s in h.public() if s.pinged]
    assert turn and all(set(s.pinged) <= {USERS["alice"], USERS["bob"]} for s in turn)
    assert_shown_safely(h)


# --- long input in error replies ---------------------------------------------------------------------------


# Past a command's length limit (Discord's, or the converter's for a prefix command) the usage is the answer;
# under it, the rules' error quotes what was typed: both are short.
@pytest.mark.parametrize("typed", ["Z" * LONG, "attack a1 " + "Z" * LONG, f"**@everyone** {'Z' * LONG}",
                                   "Z" * 390, "attack a1 " + "Z" * 350, f"**@everyone** {'Z' * 300}"])
async def test_a_6000_character_move_gets_a_short_reply_quoting_at_most_40_characters(harness: Harness,
                                                                                     typed: str) -> None:
    h = harness
    channel_id = await begin(h, "flying_blades", ("bob",), "cards=none")
    before = await table_of(h, channel_id)
    slash = [s for s in await h.slash("move", "alice", channel_id, action=typed) if s.kind != "defer"]
    prefix = await say(h, f"!move {typed}", "alice", channel_id)
    for reply in (slash, prefix):
        assert len(reply) == 1 and len(reply[0].text) < 300, [len(s.text) for s in reply]
        assert longest_run(reply[0].text, "Z") <= 40, reply[0].text
    assert slash[0].ephemeral
    assert (await table_of(h, channel_id)).version == before.version
    assert_shown_safely(h)


async def test_an_unknown_game_or_option_of_6000_characters_is_quoted_short(harness: Harness) -> None:
    h = harness
    for out in (await h.slash("play", "alice", game="Z" * LONG),
                await h.slash("play", "alice", game="flying_blades", options="Z" * LONG),
                await h.slash("play", "alice", game="flying_blades", options=f"cards={'Z' * LONG}"),
                await say(h, f"!play {'Z' * LONG}", "alice"),
                await say(h, f"!play {'Z' * 50}", "alice"),
                await say(h, f"!play flying_blades {'Z' * 250}", "alice")):
        replies = [s for s in out if s.kind != "defer"]
        assert len(replies) == 1 and len(replies[0].text) < 300 and longest_run(replies[0].text, "Z") <= 40, \
            replies[0].text[:300]
    assert not h.threads, "no lobby was opened"
    assert_shown_safely(h)


async def test_a_6000_character_category_id_is_quoted_short_in_floor_replies(harness: Harness) -> None:
    h = harness
    for out in (await floor(h, "answers", "list", "alice", category="Z" * LONG),
                await floor(h, "category", "remove", category_id=f"server_{'9' * 20}`**{'Z' * LONG}"),
                await floor(h, "answers", "add", category="countries", answers="Z" * LONG)):
        reply = only(out)
        assert reply.ephemeral and len(reply.text) < 400 and longest_run(reply.text, "Z") <= 40, reply.text[:300]
    assert_shown_safely(h)


# --- The Floor: categories, answers and a duel ---------------------------------------------------------------


HOSTILE_ANSWERS = ["**@everyone** Sparrow", "[x](http://evil) Robin", "\u202eBlackbird\u202c",
                   "<@123456789012345678> Crow", "@here Magpie",
                   "||Starling||", "`Stork`", "# Heron", "Owl\u200b", "> Swallow"]


async def test_hostile_category_names_and_answers_are_escaped_in_floor_replies(harness: Harness) -> None:
    h = harness
    name = "\u202e**@everyone** [x](http://e)"
    added = only(await floor(h, "category", "add", name=name, answers=", ".join(HOSTILE_ANSWERS)))
    assert "\\*\\*\\@everyone\\*\\* \\[x\\](http\\://e)" in added.text, added.text
    [cat] = await h.bot.engine.store.floor_categories(GUILD_ID, "en")
    assert "\u202e" not in cat["name"] and "Blackbird" in cat["answers"]  # stored without the override
    only(await floor(h, "category", "list", "alice"))
    listed = only(await floor(h, "answers", "list", "alice", category=cat["id"]))
    assert "\\*\\*\\@everyone\\*\\* Sparrow" in listed.text and "\\<\\@123456789012345678\\> Crow" in listed.text
    only(await floor(h, "answers", "add", category="countries", answers="; ".join(HOSTILE_ANSWERS)))
    only(await floor(h, "answers", "list", "alice", category="countries"))
    only(await floor(h, "answers", "remove", category="countries", answers="; ".join(HOSTILE_ANSWERS[:3])))
    assert_shown_safely(h)


async def test_a_hostile_duel_answer_and_server_categories_are_escaped_in_a_game(harness: Harness,
                                                                              discord_time: DiscordTime) -> None:
    h = harness
    for i in range(10):  # the server's own categories, so that some are dealt into the game
        await floor(h, "category", "add", name=f"\u202e**@everyone** [x](http://e) {i}",
                    answers=", ".join(HOSTILE_ANSWERS))
    rename(h, "bob", NAME)
    channel_id = await begin(h, "the_floor", ("bob", "carol"), "clock=30")
    table = await table_of(h, channel_id)
    dealt = {c for hand in table.state.hands for c in hand}
    assert any(c.startswith("server_") for c in dealt), "a server category is in play"
    await draft(h, channel_id)
    chal, defender = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    await h.click(asked, ":ready:", chal)
    await h.click(h.with_button(":ready:"), ":ready:", defender)
    table = await table_of(h, channel_id)
    letter = table.state.duel.letter
    too_long = [s for s in await h.slash("move", runner(table), channel_id, action="answer " + "Q" * 300)
                if s.kind != "defer"]  # a typed message this long is chat; a /move is told why it is refused
    assert too_long[-1].ephemeral and "at most 100" in too_long[-1].text, too_long[-1].text
    assert (await table_of(h, channel_id)).version == table.version
    discord_time.advance(1000)
    refused = await h.say(ANSWER, runner(table), channel_id)  # not on the letter (unless it is E): refused
    if letter.lower() != "e":
        assert any("\\*\\*\\@everyone\\*\\*" in s.text for s in refused), [s.text for s in refused]
    discord_time.advance(1000)
    out = await h.say(f"{letter} {ANSWER}", runner(table), channel_id)  # on no list: to the judges
    table = await table_of(h, channel_id)
    assert table.state.duel.judging
    judging = [s for s in h.public(out) if any(":accept:" in cid for cid in s.custom_ids())]
    assert judging and "\\*\\*\\@everyone\\*\\* \\[x\\](http\\://evil)" in judging[-1].text, judging[-1].text
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    out = await h.click(h.with_button(":accept:"), ":accept:", judge)
    offer = next(s for s in h.public(out) if any(":learn:" in cid for cid in s.custom_ids()))
    learned = await h.click(offer, ":learn:", "alice")
    assert learned[-1].ephemeral and "\\*\\*\\@everyone\\*\\*" in learned[-1].text, learned[-1].text
    await h.slash("board", "alice", channel_id)
    await h.slash("hand", "bob", channel_id)
    await h.pass_time(seconds=60)
    assert letters(h.sent)
    assert_shown_safely(h)
