"""The /tournament commands' option tables: choices, and the localised names and descriptions of create's
parameters (one pattern, ``cmd.tournament.create.<parameter>.name|description``)."""

from __future__ import annotations

from discord import app_commands

from cogs.tournaments import view as tv
from cogs.utils.lang import ls
from league import export as ex
from league.settings import DRAW_RULES
from league.stages import CUT_FORMATS, CUTS

FORMAT_CHOICES = [app_commands.Choice(name=ls(f"tour.format.{f.replace('-', '_')}"), value=f)
                  for f in tv.FORMAT_CHOICES]
DRAW_RULE_CHOICES = [app_commands.Choice(name=ls(f"tour.draw_rule.{r}"), value=r) for r in DRAW_RULES]
TOP_CUT_CHOICES = [app_commands.Choice(name=str(c), value=c) for c in CUTS]
CUT_FORMAT_CHOICES = [app_commands.Choice(name=ls(f"tour.format.{f}_elimination"), value=f) for f in CUT_FORMATS]
EXPORT_CHOICES = [app_commands.Choice(name=ls(f"tour.export_format.{f}"), value=f) for f in ex.EXPORT_FORMATS]

# create's parameters in the order of its signature; `name` is catalogued as `tname` (a word Discord reserves).
CREATE_PARAMETERS = ("name", "game", "format", "table_size", "rounds", "round_hours", "max_players", "checkin",
                     "late_join_rounds", "late_points", "starts_in_hours", "tiebreaks", "draw_rule", "bye_points",
                     "half_bye_points", "max_half_byes", "min_table_size", "max_table_size", "grand_final_reset",
                     "top_cut", "cut_format", "third_place", "groups", "advance", "options")


def _catalogued(parameter: str, what: str) -> app_commands.locale_str:
    return ls(f"cmd.tournament.create.{'tname' if parameter == 'name' else parameter}.{what}")


CREATE_NAMES = {p: _catalogued(p, "name") for p in CREATE_PARAMETERS}
CREATE_DESCRIPTIONS = {p: _catalogued(p, "description") for p in CREATE_PARAMETERS}
