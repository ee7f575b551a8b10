"""Floating Floors set-up: until a player places their Chakra, no output shows where it will be (issue 21).

Before, the view and the image put every Chakra (with its ninja) in the middle alcove of its side during the
set-up, before the players had chosen: the state's placeholder ``home`` leaked into what everyone sees."""

from __future__ import annotations

from dataclasses import replace

from render import floating_floors as draw
from render.floating_floors import words
from rules.floating_floors.game import FloatingFloors, side_alcoves
from rules.floating_floors.state import State

G = FloatingFloors()


def first_chakra_down() -> State:
    s = G.new(3, {}, "setup")
    s, _ = G.apply(s, 0, "chakra h9")
    assert s.phase == "chakra" and s.current == 1
    return s


def test_setup_view_shows_only_the_chakras_placed_so_far() -> None:
    s = first_chakra_down()
    view = G.view(s, None)
    assert [a["chakra"] for a in view["alcoves"] if a["chakra"] is not None] == [0]
    for n in view["ninjas"][1:]:  # not placed yet: nowhere on the map, and not "fallen" either
        assert n["x"] is None and n["y"] is None and n["home"] is None and n["alcove"] is None
        assert n["placed"] is False and n["fallen"] is False
    assert view["ninjas"][0]["placed"] is True and view["ninjas"][0]["alcove"] == s.seats[0].home


def test_setup_image_and_text_do_not_depend_on_where_an_unplaced_chakra_would_go() -> None:
    s = first_chakra_down()
    elsewhere = side_alcoves(s.layout, 3, 1)[0]
    assert elsewhere != s.seats[1].home
    other = replace(s, seats=(s.seats[0], replace(s.seats[1], home=elsewhere), s.seats[2]))
    assert G.view(s, None) == G.view(other, None)
    assert draw.render(G.view(s, None)) == draw.render(G.view(other, None))
    line = words.player_line(G.view(s, None)["ninjas"][1], (), "Bob", "en")
    assert "Chakra not placed yet" in line and "fallen" not in line


def test_once_every_chakra_is_down_each_is_shown_in_its_alcove() -> None:
    s = first_chakra_down()
    s, _ = G.apply(s, 1, "chakra a8")
    s, _ = G.apply(s, 2, "timeout")
    view = G.view(s, None)
    assert sorted(a["chakra"] for a in view["alcoves"] if a["chakra"] is not None) == [0, 1, 2]
    assert all(n["placed"] and n["alcove"] == n["home"] for n in view["ninjas"])
