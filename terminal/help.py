"""`help` and `legal` in the terminal: each game's notation, with moves legal right now; typed moves read as
Discord reads them, and "did you mean" for a mistyped verb."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

import hints
from engine import Table
from i18n import catalog, t
from render.floating_floors import words as ff
from render.floor_plan import demand_text, room_name
from render.flying_blades import card_name
from rules import rng
from rules.base import FloorboardError, Msg
from rules.floating_floors.game import preview
from rules.floor_plan import bot as fp_bot
from rules.floor_plan import notation as nt
from rules.floor_plan import planner
from rules.floor_plan.sheet import FEATURE_KINDS, ROOM_TYPES, cell_name, start_spots
from rules.flying_blades.cards import CARD_IDS, PRICE_LIMIT, PRICES
from rules.flying_blades.draft import price
from rules.the_floor import board as bd
from terminal.captions import feature_name, fp_roll_text, tf_cat

EXAMPLES = 3  # legal examples shown by `legal` and `help`
LIST_ALL = 24  # a list of legal moves longer than this is summarised per verb
SUGGESTIONS = 4  # Floor Plan: the planner's best moves listed by `legal` (as Discord's buttons offer them)


FB_FORMS = {"attack": "attack <from> <to>", "vanish": "vanish <from> <to>", "shuriken": "shuriken <from> <to>",
            "double": "double <from> <to>", "triple": "triple <from> <to>", "dragon": "dragon <cell> from <from>",
            "circle": "circle <cell>", "bomb": "bomb <from> <to>", "pass": "pass", "keep": "keep <card>,<card>…"}
FP_FORMS = {"start": "start <cell> 6x<die>", "room": "room <cell> <w>x<h> <type>@<cell>",
            "features": "features <die>:<cells> <die>:<cells>", "doors": "doors <cell>,<cell>",
            "claim": "claim <demand>", "skip": "skip"}
FW_FORMS = {"move": "move x,y", "land": "land x,y", "village": "village", "takeover": "takeover body|mind|spirit",
            "attack": "attack <demon>|<player> <stat>", "harvest": "harvest", "buy": "buy <card>",
            "keep": "keep none", "heal": "heal", "trade": "trade <item> to <player>", "seal": "seal", "end": "end",
            "boost": "<roll> boost", "resolve": "resolve <demon>@x,y | resolve all", "flee": "flee x,y",
            "spawn": "spawn x,y"}
FF_FORMS = {"take": "take <jutsu> pool | <space> | under <space>",
            "place": "place <jutsu> <space> [ne] [nudge sw] [+ place … | + move …]",
            "board": "board <space> [back] [r90]", "move": "move <space> [nudge sw]", "claim": "claim",
            "end": "end [keep ws wt]",
            "reset": "reset", "stand": "stand <player> <space>", "chakra": "chakra <space>", "use": "use <bansen>",
            "hide": "hide <bansen> <space>"}
TF_FORMS = {"pick": "pick <category>", "challenge": "challenge <your cell> <their cell>", "ready": "ready",
            "answer": "<answer>", "pass": "pass", "dispute": "dispute", "judge": "judge accept|reject",
            "take": "take <cell>,<cell>", "keep": "keep <category>"}



def ff_whatif(table: Table, seat: int, action: str, lang: str) -> str:
    """Floating Floors: ``? <move>`` says whether each touched board would stand (a combination ``a + b`` as one
    board), with the rules' own preview (steady hands; nothing is played)."""
    try:
        return ff.preview_text(preview(table.state, seat, " ".join(action.lower().split())), lang)
    except FloorboardError as e:
        return t(terminal_words(e.msg), lang)


def spread(items: list[str], count: int = EXAMPLES) -> list[str]:
    """A few items from across a sorted list (not just its first, alphabetically similar ones)."""
    if len(items) <= count:
        return list(items)
    step = (len(items) - 1) / (count - 1) if count > 1 else 0
    return list(dict.fromkeys(items[round(i * step)] for i in range(count)))


def fb_hand_text(hand: list[str], lang: str) -> str:
    counts = Counter(hand)
    parts = [f"{card_name(c, lang)} ({PRICES[c]})" + (f" ×{counts[c]}" if counts[c] > 1 else "")
             for c in CARD_IDS if counts[c]]
    return ", ".join(parts) or t("cli.fb.no_cards", lang)


def fb_prices(lang: str) -> str:
    return ", ".join(f"{card_name(c, lang)} ({c}) {PRICES[c]}" for c in CARD_IDS)


def fb_keep_examples(table: Table, seat: int, legal: list[str]) -> list[str]:
    """The bot's own choice, the dearest keep and keeping nothing: all in the rules' list of legal keeps."""
    bot = table.rules.bot_action(table.state, seat)
    dearest = max(legal, key=lambda k: (price(k.split()[1].split(",")) if k != "keep none" else 0, k))
    return [k for k in dict.fromkeys([bot, dearest, "keep none"]) if k in legal]


def fb_legal(table: Table, seat: int, lang: str) -> list[str]:
    state, legal = table.state, table.rules.legal_actions(table.state, seat) or []
    hand = list(state.hands[seat])
    if state.phase == "draft":
        return [t("cli.fb.hand", lang, cards=fb_hand_text(hand, lang)),
                t("cli.fb.budget", lang, limit=PRICE_LIMIT, count=len(legal)),
                examples_text(fb_keep_examples(table, seat, legal), lang)]
    lines = [t("cli.fb.hand", lang, cards=fb_hand_text(hand, lang))] if hand else []
    return lines + grouped(legal, lang)


def examples_text(moves: list[str], lang: str) -> str:
    """One example a line: a Floor Plan move may itself hold ``;``."""
    return "\n".join([t("cli.examples", lang), *(f"  {m}" for m in moves)])


def grouped(legal: list[str], lang: str) -> list[str]:
    """Every legal move when they are few; else a count and a few examples per verb."""
    if len(legal) <= LIST_ALL:
        return [", ".join(legal)]
    verbs: dict[str, list[str]] = {}
    for action in legal:
        verbs.setdefault(action.split()[0], []).append(action)
    lines = [t("cli.legal_count", lang, count=len(legal))]
    lines += [f"  {verb} ({len(acts)}): {'; '.join(spread(acts))}" for verb, acts in verbs.items()]
    return lines




def fp_dice_table(lang: str) -> list[str]:
    return [t("cli.fp.table_title", lang)] + [
        f"  {d}  {ROOM_TYPES[d - 1]} {room_name(ROOM_TYPES[d - 1], lang):<12} {d} × "
        f"{feature_name(FEATURE_KINDS[d - 1], lang)}" for d in range(1, 7)]


def fp_candidates(table: Table, seat: int) -> list[str]:
    """Moves to offer as examples: the bot's choice, a few of the rooms and features it considers, a claim."""
    state, rules = table.state, table.rules
    out = [rules.bot_action(state, seat)]
    if state.phase == "setup":
        return out + spread(fp_starts(state.roll[1]), EXAMPLES + 2)
    board = state.board(seat, private=True)
    r = rng.stream(state.seed, 7_000_000 + state.round)  # not the bot's stream: other candidates than its pick
    out += [nt.text((nt.Step("room", rooms=(rd,)),)) for rd, _ in fp_bot._rooms(r, state, board.sheet, state.roll)]
    feats = fp_bot._features(r, board.sheet, state.roll)
    if feats is not None:
        out.append(nt.text((feats,)))
    out += [f"claim {d}" for d in rules.claimable(state, seat)[:1]]
    return [*out, "skip"]


def fp_starts(die: int) -> list[str]:
    """Every living room of 6×die (either way round) over the centre cell, as the setup asks."""
    return [f"start {cell_name((x, y))} {w}x{h}" for x, y, w, h in start_spots(die)]


def fp_examples(table: Table, seat: int) -> list[str]:
    """Candidates the rules accept in this very position (each checked by ``apply`` on the state)."""
    legal = []
    for action in dict.fromkeys(fp_candidates(table, seat)):
        try:
            table.rules.apply(table.state, seat, action)
        except FloorboardError:
            continue
        legal.append(action)
    by_verb: dict[str, str] = {}
    for action in legal:
        by_verb.setdefault(action.split()[0], action)
    chosen = list(dict.fromkeys([*legal[:1], *by_verb.values(), *legal]))[:max(EXAMPLES, len(by_verb))]
    return sorted(chosen, key=legal.index)


def fp_legal(table: Table, seat: int, lang: str) -> list[str]:
    state = table.state
    lines = [t("cli.fp.roll", lang, roll=fp_roll_text(state.roll, lang))]
    if state.phase == "setup":
        lines.append(t("cli.fp.setup", lang, die=state.roll[1]))
    else:
        board = state.board(seat, private=True)
        bonuses = [t(f"render.floor_plan.bonus.{b}", lang) for b in ("double_room", "double_feature", "two_doors")
                   if board.open_bonus(b) is not None]
        lines.append(t("cli.fp.bonuses", lang, bonuses=", ".join(bonuses) or "—",
                       wild=t("render.floor_plan.wild_used" if board.wild_used else "render.floor_plan.wild_ready",
                              lang)))
        claimable = table.rules.claimable(state, seat)
        if claimable:
            demands = ", ".join(f"{d} ({demand_text(d, lang)})" for d in claimable)
            lines.append(t("cli.fp.claimable", lang, demands=demands))
    found = fp_suggestions(table, seat)
    if found:  # the same suggestions as Discord's "Suggest a move" buttons
        lines.append(t("cli.fp.suggested", lang))
        lines += [t("cli.fp.suggestion_points" if s.points else "cli.fp.suggestion", lang, n=n, action=s.text,
                    points=s.points) for n, s in enumerate(found, start=1)]
    lines.append(t("cli.fp.too_many", lang))
    lines.append(examples_text(fp_examples(table, seat), lang))
    return lines


def fp_suggestions(table: Table, seat: int) -> list[Any]:
    """The planner's best few moves for the seat (none when it is not to act)."""
    if table.status != "active" or seat not in table.to_move():
        return []
    return planner.suggest(table.rules, table.state, seat, SUGGESTIONS)


def suggestion_numbered(table: Table, seat: int, text: str) -> str:
    """A Floor Plan player may type the number of a suggestion `legal` listed (``2``) to play it."""
    if table.game != "floor_plan" or not text.isdigit():
        return text
    found = fp_suggestions(table, seat)
    n = int(text)
    return found[n - 1].text if 1 <= n <= len(found) else text


def terminal_words(msg: Msg) -> Msg:
    """A rules message in the terminal's own words where the rules' names a Discord button ("press Challenge") or
    shows internal notation ("Usage: pass <elapsed ms>"): the catalog's ``terminal.<key>.<verb>`` (a message about
    one verb) or ``terminal.<key>``, with the same parameters, if there is one."""
    for key in (f"terminal.{msg.key}.{msg.params.get('verb')}", f"terminal.{msg.key}"):
        if key in catalog("en"):
            return Msg(key, **msg.params)
    return msg


def tf_legal(table: Table, seat: int, lang: str) -> list[str]:
    state, legal = table.state, table.rules.legal_actions(table.state, seat)
    if legal and legal[0].split()[0] in ("pick", "keep"):  # category ids, with the names players know
        return [f"  {a} — {tf_cat(table, a.split()[1])}" for a in legal]
    if legal:
        return grouped(legal, lang)
    d = state.duel
    if state.pending and state.pending[0].kind == "take":
        p = state.pending[0]
        cells = [bd.name(c) for c in p.cells]
        return [t("cli.tf.take_legal", lang, count=p.count, cells=", ".join(cells)),
                examples_text([table.rules.bot_action(state, seat)], lang)]
    if d is not None and d.started:
        return [t("cli.tf.answer_legal", lang, letter=d.letter, category=tf_cat(table, d.category))]
    return [t("cli.no_moves", lang)]


def move_verbs(game: str) -> list[str]:
    """The verbs a player types in ``game`` (from the help's forms; an answer or a boost is no verb of its own)."""
    forms = {"flying_blades": FB_FORMS, "floor_plan": FP_FORMS, "the_floor": TF_FORMS, "floating_world": FW_FORMS,
             "floating_floors": FF_FORMS}.get(game, {})
    return [v for v in forms if v not in ("answer", "boost")] + ["resign"]


def words_module(game: str) -> Any:
    """The game's words in players' languages (``rules/<game>/words.py``), or None for a game that has none."""
    name = f"rules.{game}.words"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def typed_text(game: str, text: str) -> str:
    """A typed move read as Discord reads typed moves and ``/move``: ``pas`` is ``pass`` in every game, whatever
    its language, and the log keeps the English notation. The game's own ``canonical_text`` (the cog calls the same
    function); a game whose notation reads its own aliases (Floating World) gets its words lowercased, as its cog
    does. (The Floor reads a duel's answers first: `TheFloor.typed_action`.)"""
    words = words_module(game)
    return words.canonical_text(text) if words is not None else " ".join(text.lower().split())


def typed_aliases(game: str) -> dict[str, str]:
    """The other languages' spellings of the game's verbs (``atak`` → ``attack``), for "did you mean"."""
    words = words_module(game)
    table = getattr(words, "VERB_ALIAS", None)
    if table is None:  # a game whose notation module keeps its aliases (Floating World)
        table = getattr(importlib.import_module(f"rules.{game}.notation"), "ALIASES", {})
    verbs = set(move_verbs(game))
    return {alias: verb for alias, verb in table.items() if verb in verbs}


def typo_hint(table: Table, seat: int, text: str, lang: str) -> str | None:
    """For a refused move whose first word is no verb (``atack d3 e3``, ``atakk d3 e3``): "did you mean
    `attack`?" and moves legal now, by the hint mechanism of Discord's typed moves (`hints`), which knows the
    verbs in every language; None otherwise (the rules' error says why)."""
    verbs, aliases = move_verbs(table.game), typed_aliases(table.game)
    words = text.split()
    guess = hints.closest(words[0], verbs, aliases) if words else None
    examples = examples_for(table, seat)
    shown = [examples[v] for v in dict.fromkeys([guess or "", *examples]) if v in examples]
    msg = hints.unknown_verb_msg(text, verbs, aliases=aliases, examples=shown)
    return None if msg is None else hints.render(msg, lang)



def legal_lines(table: Table, seat: int, lang: str) -> list[str]:
    return {"flying_blades": fb_legal, "floor_plan": fp_legal, "the_floor": tf_legal}.get(
        table.game, lambda *_: grouped(table.rules.legal_actions(table.state, seat) or [], lang))(table, seat, lang)


def examples_for(table: Table, seat: int) -> dict[str, str]:
    """One legal example per verb, from the rules' own list (or the checked Floor Plan candidates)."""
    if table.game == "floor_plan":
        actions = fp_examples(table, seat)
    else:
        # a game may name the legal moves worth suggesting (Floating World: never an attack on a partner)
        actions = getattr(table.rules, "examples", table.rules.legal_actions)(table.state, seat) or []
    out: dict[str, str] = {}
    for action in actions:  # a rare verb (one bomb among a thousand vanishes) gets its example too
        out.setdefault(action.split()[0], action)
    if table.game == "flying_blades" and table.state.phase == "draft" and actions:
        out["keep"] = fb_keep_examples(table, seat, actions)[0]
    return out


def help_lines(table: Table, seat: int, lang: str) -> list[str]:
    forms = {"flying_blades": FB_FORMS, "floor_plan": FP_FORMS, "the_floor": TF_FORMS,
             "floating_world": FW_FORMS, "floating_floors": FF_FORMS}.get(table.game, {})
    examples = examples_for(table, seat)
    lines = [t("cli.help.title", lang, game=table.rules.name)]
    for verb, form in forms.items():
        line = f"  {form:<38} {t(f'cli.help.{table.game}.{verb}', lang)}"
        if verb in examples:
            line += " " + t("cli.help.now", lang, move=examples[verb])
        lines.append(line)
    if table.game == "flying_blades":
        lines.append(t("cli.fb.prices", lang, prices=fb_prices(lang), limit=PRICE_LIMIT))
    if table.game == "floor_plan":
        lines += fp_dice_table(lang)
        lines.append(t("cli.fp.help_join", lang))
    lines.append(t("cli.help.commands", lang))
    return lines
