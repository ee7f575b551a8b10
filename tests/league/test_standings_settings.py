"""The organiser's tie-break order (Setting `tiebreaks`, FIDE C.07 Art. 4.1: an ordered list chosen in advance)."""

from __future__ import annotations

import pytest

from league.model import Entrant
from league.settings import Settings, TournamentError
from league.tournament import Tournament


def test_tiebreak_order_set_by_the_organiser_orders_the_standings_columns() -> None:
    settings = Settings(game="flying_blades", format="swiss", tiebreaks=("sonneborn_berger", "direct"))
    t = Tournament("x", settings, "s1", entrants=tuple(Entrant(f"p{i}", f"P{i}") for i in range(4)))
    assert t.scoring.tiebreaks == ("sonneborn_berger", "direct")
    assert list(t.start().standings()[0].tiebreaks) == ["sonneborn_berger", "direct"]


def test_unset_tiebreak_order_keeps_each_formats_usual_order() -> None:
    assert Settings(game="g", format="swiss").tiebreak_order[0] == "buchholz_cut1"
    assert Settings(game="g", format="pods", table_size=4).tiebreak_order[0] == "opponents_points"


@pytest.mark.parametrize("order", [("buchholz", "median"), ("wins", "wins")])
def test_unknown_or_repeated_tiebreak_is_refused(order: tuple[str, ...]) -> None:
    with pytest.raises(TournamentError) as e:
        Settings(game="g", format="swiss", tiebreaks=order)
    assert e.value.msg.key == "tour.bad_tiebreaks"
