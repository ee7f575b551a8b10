"""`cogs.utils.text`: users' text made safe to post (markdown, mentions, links) and to draw (control and bidi
characters, length); and the error replies that quote what a user typed."""

from __future__ import annotations

import re
import unicodedata

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.utils.replies import MAX_CONTENT, fit_content, shown_msg
from cogs.utils.surface import escape
from cogs.utils.text import BIDI, ELLIPSIS, ZERO_WIDTH, clean, code, excerpt, mention, safe, visible
from i18n import LOCALES, t
from rules.base import Msg

HOSTILE = "**@everyone** [x](http://evil) \u202eevil\u202c <@123456789012345678> <#1> <@&2> @here ||s|| `c` # h"
# Characters Discord reads as markup in the middle of a line, and at its start.
MARKUP = set("\\*_~|`[]<>@#")
LEADING = set("-+#>")


def unescape(text: str) -> str:
    """What Discord shows of escaped text: a backslash before punctuation is hidden, the character shown."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text)


def bare_markup(text: str) -> list[str]:
    """The markup characters of ``text`` that no backslash escapes (Discord would act on them)."""
    bare, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 2
            continue
        if text[i] in MARKUP or (i == 0 and text[i] in LEADING):
            bare.append(text[i])
        i += 1
    return bare


def invisible(text: str) -> list[str]:
    return [c for c in text if c in BIDI or c in ZERO_WIDTH or
            (unicodedata.category(c) in ("Cc", "Cf", "Cs") and c != " ")]


# --- clean ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("char", [*sorted(BIDI | ZERO_WIDTH), "\x00", "\x1b", "\x7f", "\u00ad", "\U000e0041"])
def test_control_bidi_and_zero_width_characters_are_removed(char: str) -> None:
    assert clean(f"ab{char}cd", 40) == "abcd"


def test_whitespace_and_new_lines_collapse_to_single_spaces() -> None:
    assert clean("  a\n\n\tb \u2028 c\u3000d  ", 40) == "a b c d"


def test_long_text_is_clipped_with_an_ellipsis_within_the_limit() -> None:
    assert clean("x" * 500, 32) == "x" * 31 + ELLIPSIS
    assert clean("x" * 32, 32) == "x" * 32
    assert clean("word " * 20, 12) == "word word w" + ELLIPSIS


def test_zalgo_marks_are_capped_but_accents_kept() -> None:
    assert clean("Zoë Łódź", 40) == "Zoë Łódź"
    zalgo = clean("a" + "\u0301\u0300\u0302\u0303\u0304\u0305" * 10, 200)
    assert len(zalgo) == 4


def test_clean_is_idempotent() -> None:
    for text in (HOSTILE, "x" * 100, "a\u0301" * 50):
        once = clean(text, 32)
        assert clean(once, 32) == once


# --- safe ----------------------------------------------------------------------------------------------------


def test_markdown_mentions_and_links_show_as_typed_but_never_act() -> None:
    shown = safe(HOSTILE, 200)
    assert not bare_markup(shown)
    assert unescape(shown) == clean(HOSTILE, 200)
    assert "http://" not in shown  # no link is recognised, masked or bare
    assert not re.search(r"(?<!\\)(@everyone|@here|<@|<#)", shown)
    assert "\u200b" not in shown  # escaped with backslashes, not with a zero-width space


def test_an_escaped_name_is_clipped_to_a_names_length() -> None:
    name = "**" + "A" * 300 + "**"
    shown = escape(name)
    assert len(unescape(shown)) == 32 and unescape(shown).endswith(ELLIPSIS)
    assert escape("\u202e\u200b") == "?"  # nothing visible left


def test_a_deliberate_mention_is_markup_and_kept() -> None:
    assert mention(42) == "<@42>"
    assert t(shown_msg(Msg("lobby.resign_not_yours", name=mention(42))), "en").count("<@42>") == 1


def test_code_spans_only_lose_their_backticks() -> None:
    assert code("a`b*c", 40) == "a\u02cbb*c"
    assert code("", 40) == "\u2014"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=1, max_value=120))
def test_safe_output_has_no_control_chars_fits_the_limit_and_escapes_all_markup(text: str, limit: int) -> None:
    shown = safe(text, limit)
    assert not invisible(shown)
    assert len(unescape(shown)) <= limit + 1
    assert len(shown) <= 2 * (limit + 1)
    assert not bare_markup(shown)
    assert unescape(shown) == clean(text, limit)  # shown exactly as cleaned: nothing lost to the escapes
    # outside the escaped pairs (each kept as a plain letter, so that what follows one is not read as the start
    # of a line), discord.py's own markdown stripper finds nothing to strip
    rest = re.sub(r"\\.", "x", shown)
    assert discord.utils.remove_markdown(rest, ignore_links=False) == rest


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab *_[]()<>@#:/`\\|~\u202e\u200b\n")), max_size=200))
def test_safe_output_never_holds_a_mention_or_link_pattern(text: str) -> None:
    shown = safe(text, 200)
    assert not re.search(r"(?<!\\)@(everyone|here)", shown)
    assert not re.search(r"(?<!\\)<[@#]", shown)
    assert not re.search(r"(?<!\\)\[[^\]]*(?<!\\)\]\(", shown)
    assert not re.search(r"https?://", shown)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_visible_drops_exactly_the_invisible_characters(text: str) -> None:
    assert not invisible(visible(text))


# --- error replies -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_an_unknown_verb_of_6000_characters_is_quoted_in_40(locale: str) -> None:
    typed = "**@everyone**" + "x" * 6000
    reply = t(shown_msg(Msg("fb.parse.unknown_verb", verb=typed, verbs="attack, pass")), locale)
    assert len(reply) < 300
    assert "x" * 40 not in reply and "\\*\\*\\@everyone" in reply
    assert not re.search(r"(?<!\\)@everyone", reply)


def test_user_text_in_a_code_span_is_quoted_without_backslashes() -> None:
    reply = t(shown_msg(Msg("tfa.unknown_category", id="my_cat`**" + "y" * 100, lang="en")), "en")
    assert "`my_cat\u02cb**" in reply and "y" * 40 not in reply


def test_nested_messages_and_trusted_lists_are_left_whole() -> None:
    usage = "attack <from> <to>, pass, " * 4
    msg = shown_msg(Msg("fb.parse.usage", verb="x" * 100, usage=usage))
    assert msg.params["usage"] == usage and len(unescape(msg.params["verb"])) == 40
    outer = shown_msg(Msg("x", inner=Msg("y", name="@everyone")))
    assert outer.params["inner"].params["name"] == "\\@everyone"


def test_excerpt_is_short_and_never_empty() -> None:
    assert len(unescape(excerpt("z" * 1000))) == 40
    assert excerpt("\u202e") == "\u2014"


def test_no_reply_content_passes_discords_2000_characters() -> None:
    assert len(fit_content("a" * 5000)) == MAX_CONTENT
    assert fit_content("short") == "short" and fit_content(None) is None


# --- images --------------------------------------------------------------------------------------------------


def test_bidi_overrides_and_long_names_change_nothing_in_an_image_but_the_clipped_name() -> None:
    from render import flying_blades as fb
    from render import kit as common
    from tests.views_flying_blades import make_view

    hostile = ["\u202e" + "W" * 500, "Bo\u200b\u2066b\u2069", "**@everyone** [x](http://evil)\u202e" + "m" * 300]
    view = make_view(3, viewer=0)
    assert fb.render(view, names=hostile) == fb.render(view, names=[clean(n, 32) for n in hostile])
    assert fb.render(view, names=hostile) != fb.render(view, names=["W" * 500, "Bob", "x"])
    shown = common.display_name(hostile[0], "Player 1")
    assert shown == "W" * 31 + ELLIPSIS and not invisible(shown)


def test_a_hostile_category_and_answer_are_drawn_clean_in_the_floor() -> None:
    from render import kit as common
    from render import the_floor as tf
    from tests import views_the_floor as vt

    name = "\u202e**@everyone** [x](http://evil)" * 10
    view = vt.with_judging(vt.with_long_category(vt.real_view(3, "duel"), name), answer="\u202e" + "Q" * 500)
    plain = vt.with_judging(vt.with_long_category(vt.real_view(3, "duel"), clean(name, common.TEXT_LIMIT)),
                            answer=clean("Q" * 500, common.TEXT_LIMIT))
    assert tf.render(view, names=vt.names_for(view)) == tf.render(plain, names=vt.names_for(plain))
    assert "\u202e" not in tf.text_board(view, names=vt.names_for(view))
