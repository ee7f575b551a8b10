"""The Dream cards a Floating World harvest drew, as an image (render/floating_world/cards.py)."""

from __future__ import annotations

import re

import pytest
from PIL import Image

import i18n
from render.floating_world import cards as fwc
from rules.floating_world.content import CONTESTS, DREAM_BY_ID, DREAM_IDS, STATS, VOCABULARY, Dream
from tests.pngs import png_image
from tests.rules import fw_helpers as h

THREE = ["iron_club", "market_day", "nine_tails"]


def expected_size(count: int) -> tuple[int, int]:
    cols, rows = min(count, fwc.PER_ROW), -(-count // fwc.PER_ROW)
    return (2 * fwc.PAD + cols * fwc.CARD_W + (cols - 1) * fwc.GAP,
            2 * fwc.PAD + rows * fwc.CARD_H + (rows - 1) * fwc.GAP)


def luminance(img: Image.Image, xy: tuple[int, int]) -> float:
    r, g, b = img.convert("RGB").getpixel(xy)[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("count", [1, 3, 8])
def test_png_of_the_expected_size(count: int) -> None:
    img = png_image(fwc.dream_cards_image(list(DREAM_IDS[:count])))
    assert img.mode == "P"
    assert img.size == expected_size(count)
    assert fwc.card_box(count - 1, count)[2] <= img.width and fwc.card_box(count - 1, count)[3] <= img.height


def test_eight_cards_wrap_to_a_second_row() -> None:
    assert fwc.card_box(5, 8)[1] > fwc.card_box(4, 8)[1]
    assert fwc.card_box(5, 8)[0] == fwc.card_box(0, 8)[0]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_shipped_card_renders(locale: str) -> None:
    for i in range(0, len(DREAM_IDS), 5):
        png_image(fwc.dream_cards_image(DREAM_IDS[i:i + 5], locale=locale, praise=4))


def _samples() -> list[Dream]:
    """A Dream per effect kind and parameter value that changes the words (every stat, every contest)."""
    out = []
    for kind, (card_type, spec) in VOCABULARY.items():
        if kind == "stat_bonus":
            out += [Dream(f"s_{s}_{p}", {"en": "x", "pl": "x"}, card_type, 3, kind, {"stat": s, "pips": p})
                    for s in STATS for p in (1, 2, 3)]
        elif kind == "contest_die":
            out += [Dream(f"c_{c}", {"en": "x", "pl": "x"}, card_type, 3, kind, {"contest": c, "dice": 1})
                    for c in CONTESTS]
        else:
            params = {key: rng[1] for key, rng in spec.items()}
            out.append(Dream(f"k_{kind}", {"en": "x", "pl": "x"}, card_type, 3, kind, params))
    return out


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_effect_text_for_every_kind_mentions_its_parameter(locale: str) -> None:
    for dream in _samples():
        text = fwc.effect_text(dream, locale)
        assert text and text != "?" and "{" not in text and "render." not in text, (dream, text)
        for key in ("amount", "pips", "dice"):
            if key in dream.params:
                assert re.search(rf"\b{dream.params[key]}\b", text), (dream, text)
        if "stat" in dream.params:
            assert i18n.t(f"fw.stat.{dream.params['stat']}", locale) in text


def test_effect_text_examples_and_plurals() -> None:
    d = DREAM_BY_ID
    assert fwc.effect_text(d["iron_club"]) == "+1 pip to Body in every roll"
    assert fwc.effect_text(d["oni_mask"]) == "+2 pips to Body in every roll"
    assert fwc.effect_text(d["lucky_coin"]) == "Reroll one failed contest, then discard"
    assert fwc.effect_text(d["demon_slayer"]) == "+1 die against demons"
    assert fwc.effect_text(d["iron_club"], "pl") == "Ciało: +1 oczko w każdym rzucie"
    assert fwc.effect_text(d["oni_mask"], "pl") == "Ciało: +2 oczka w każdym rzucie"
    odd = Dream("odd", {"en": "x", "pl": "x"}, "item", 3, "no_such_kind", {})
    assert fwc.effect_text(odd) == "?"


def test_every_catalog_key_is_in_both_locales() -> None:
    en = {k for k in i18n.catalog("en") if k.startswith(fwc.KEY)}
    pl = {k for k in i18n.catalog("pl") if k.startswith(fwc.KEY)}
    assert en and en == pl
    for key in en:
        text = i18n.catalog("pl")[key]
        if isinstance(text, dict):
            assert {"one", "few", "many", "other"} <= set(text), key


def test_unaffordable_cards_are_dimmed() -> None:
    cards = ["lucky_coin", "war_fan"]  # costs 2 and 6
    img = fwc.draw_dream_cards(cards, praise=3)
    for fx, fy in ((0.1, 0.5), (0.9, 0.35), (0.85, 0.06)):  # paper, paper, band
        cheap, dear = (fwc.card_box(i, 2) for i in range(2))
        at = [(round(b[0] + fx * fwc.CARD_W), round(b[1] + fy * fwc.CARD_H)) for b in (cheap, dear)]
        assert luminance(img, at[1]) < luminance(img, at[0]) - 30, (fx, fy)
    same = fwc.draw_dream_cards(cards)  # no praise given: nothing is dimmed
    b = fwc.card_box(1, 2)
    paper = (b[0] + round(0.1 * fwc.CARD_W), b[1] + fwc.CARD_H // 2)
    assert luminance(same, paper) > luminance(img, paper) + 30


def test_needs_more_praise_strip_only_on_unaffordable_cards() -> None:
    img = fwc.draw_dream_cards(["lucky_coin", "war_fan"], praise=3).convert("RGB")
    for i, want in ((0, False), (1, True)):
        x0, _, _, y1 = fwc.card_box(i, 2)
        strip = img.crop((x0 + 10, y1 - fwc.STRIP_H + 2, x0 + fwc.CARD_W - 10, y1 - 4))
        assert (fwc.GOLD in {c for _, c in strip.getcolors(1 << 16)}) is want


def test_chosen_card_has_a_gold_frame() -> None:
    img = fwc.draw_dream_cards(THREE, chosen="market_day").convert("RGB")
    for i, want in enumerate((False, True, False)):
        x0, y0, _, y1 = fwc.card_box(i, 3)
        assert (img.getpixel((x0 - 5, (y0 + y1) // 2)) == fwc.GOLD) is want


@pytest.mark.parametrize("cards", [["nope"], ["iron_club", "", None, 7, "x" * 500], [], "iron_club"])
def test_unknown_or_malformed_ids_draw(cards: object) -> None:
    for locale in i18n.LOCALES:
        png_image(fwc.dream_cards_image(cards, locale=locale, praise="lots", chosen=5))  # type: ignore[arg-type]


def test_many_cards_are_capped() -> None:
    img = png_image(fwc.dream_cards_image(list(DREAM_IDS) * 3))
    assert img.size == expected_size(fwc.MAX_CARDS)


def test_same_view_same_bytes() -> None:
    a = fwc.dream_cards_image(THREE, locale="pl", praise=4, chosen="iron_club")
    fwc.card_base.cache_clear()
    assert a == fwc.dream_cards_image(list(THREE), locale="pl", praise=4, chosen="iron_club")


def test_small() -> None:
    assert len(fwc.dream_cards_image(THREE, praise=4)) < 150_000


def test_a_harvest_the_rules_dealt_is_drawn_card_by_card() -> None:
    """The cards and the Praise come from a seeded game's view at a harvest, as the surfaces pass them."""
    step = h.first_step(lambda st: st.state.harvest is not None)
    view = step.view(step.seat)
    cards, praise = view["harvest"]["cards"], view["kitsune"][step.seat]["praise"]
    img = png_image(fwc.dream_cards_image(cards, praise=praise))
    assert img.size == expected_size(len(cards))
