"""The terminal game loop: opens or resumes a save, lets bots play, prompts the humans, prints and saves images."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from engine import ActResult, DamagedGameError, Engine, SeatInfo, Table
from engine.services import StorageOpenError, open_store
from i18n import t
from i18n.text import seat_names
from render import floating_world as fw_render
from render import floor_plan as fp_render
from render.floating_world.words import card_names
from render.kit import image_name
from render.registry import RENDERERS
from rules.base import Event, FloorboardError, Msg
from terminal.captions import Hidden, Line, fb_caption, ff_caption, fp_caption, fp_words, fw_caption, quiet, tf_caption
from terminal.help import (
    fb_legal,
    ff_whatif,
    help_lines,
    legal_lines,
    suggestion_numbered,
    terminal_words,
    typed_text,
    typo_hint,
)
from terminal.saves import damaged_notice, damaged_saves, drop_command, free_name, same_command, save_channel, save_name
from terminal.settings import EXIT_ERROR, EXIT_STORAGE, PROG, SAVE_META, Read, Settings

HUMAN_BASE_ID = 1000
FINAL_SHEETS = 6  # Floor Plan's final sheets printed at most (past 6 players the summary is a leaderboard)


class TerminalGame:
    def __init__(self, engine: Engine, settings: Settings, read: Read) -> None:
        self.engine = engine
        self.settings = settings
        self.read = read
        self.lang = settings.lang
        self.renderer = RENDERERS[settings.game]
        self.text_board = self.renderer.text_board
        self.images = 0
        self.hidden: dict[int, str] = {}  # Floor Plan: this round's drawings, shown when it closes

    def say(self, key: str | Msg, **params: Any) -> None:
        print(t(key, self.lang, **params))

    async def saved(self) -> Table | None:
        """The running game this command names (its save, or the latest one the same command started)."""
        s = self.settings
        if s.save is not None:
            table = await self.engine.table_in_channel(save_channel(s.save))
            if table is not None and table.status == "lobby":  # a set-up cut short: nothing was played
                await self.engine.abort(table.id, table.host_id, is_admin=True)
                return None
            if table is not None and table.game != s.game:
                raise click.UsageError(t("cli.err.save_other_game", self.lang, save=s.save, game=table.rules.name))
            if table is not None and s.new:
                raise click.UsageError(t("cli.err.save_taken", self.lang, save=s.save))
            return table
        if s.new:
            return None
        tables = [x for x in await self.engine.running_tables(s.game) if same_command(x, s)]
        if not tables:  # this command's own save is damaged: say so (how to drop it), never start another silently
            for shell in await damaged_saves(self.engine):
                if shell.game == s.game and same_command(shell, s):
                    raise DamagedGameError(shell.id)
        return max(tables, key=lambda x: x.updated_at, default=None)

    async def setup(self) -> Table:
        await self.engine.check_stored()  # any damaged save is said now, whichever game this start plays
        existing = await self.saved()
        if existing is not None:
            self.say("cli.resumed", game=existing.rules.name, table=existing.id, count=existing.moves,
                     save=save_name(existing))
            return existing
        others = await self.engine.running_tables(self.settings.game)
        name = self.settings.save or await free_name(self.engine, self.settings.game)
        table = await self.open(name)
        humans = self.settings.players - self.settings.bots
        self.say("cli.started" if humans else "cli.started_bots", table=table.id, game=table.rules.name, save=name)
        if others:
            self.say("cli.kept", count=len(others))
        return table

    def player(self, n: int) -> str:
        return t("cli.player", self.lang, n=n)

    async def open(self, name: str) -> Table:
        s = self.settings
        humans = s.players - s.bots
        # With no human at the table the first bot hosts it (host id 0, as for any bot-hosted table).
        host = SeatInfo(HUMAN_BASE_ID, self.player(1)) if humans else SeatInfo(None, "Bot 1", bot=True)
        host_id = HUMAN_BASE_ID if humans else 0
        table = await self.engine.open_lobby(s.game, guild_id=None, channel_id=save_channel(name), host=host,
                                             options=s.options, seed=s.seed)
        await self.engine.set_meta(table.id, **{SAVE_META: {"save": name, "shape": s.shape()}})
        for i in range(1, humans):
            await self.engine.join(table.id, SeatInfo(HUMAN_BASE_ID + i, self.player(i + 1)))
        for _ in range(s.bots - (0 if humans else 1)):
            await self.engine.add_bot(table.id, host_id)
        return await self.engine.start(table.id, host_id)  # the seed is secret until the end

    def show(self, table: Table, seat: int | None) -> None:
        """Print the board as ``seat`` sees it (hot seat: the player about to type)."""
        print(self.text_board(self.engine.view(table, seat), names=seat_names(table.seats), locale=self.lang))

    def show_final(self, table: Table) -> None:
        """The board at the end. Floor Plan's public board has no blueprint (each player draws their own): it is
        shown with the final sheet of each human, or of the winners when only bots played."""
        if table.game != "floor_plan" or table.state is None:
            self.show(table, None)
            return
        view = self.engine.view(table, None)
        for seat in final_sheet_seats(table):
            sheet = table.rules.sheet_view(table.state, seat)
            print(self.text_board({**view, "sheet": sheet}, names=seat_names(table.seats), locale=self.lang))

    def write_png(self, table: Table, label: str, png: bytes) -> None:
        self.settings.out.mkdir(parents=True, exist_ok=True)
        (self.settings.out / image_name(f"{table.game}-{table.id}-{label}", png)).write_bytes(png)
        self.images += 1

    def save_images(self, table: Table, events: list[Event] | None = None) -> None:
        """What the bot would post: the public board after a move; Floor Plan's summary and sheets per round."""
        if not self.settings.images:
            return
        if table.game == "floor_plan":
            self.floor_plan_images(table, events or [])
            return
        if table.game == "floating_world":
            self.floating_world_images(table, events or [])
            return
        png = self.renderer.board(self.engine.view(table, None), names=seat_names(table.seats), locale=self.lang)
        if png is not None:
            self.write_png(table, f"{table.moves:04d}", png)

    def floating_world_images(self, table: Table, events: list[Event]) -> None:
        """The map after every move; after a Nightmare, its image too (as the bot posts them)."""
        view = self.engine.view(table, None)
        if any(e.kind == "nightmare" for e in events):
            self.write_png(table, f"{table.moves:04d}-nightmare", fw_render.nightmare_image(
                view, names=seat_names(table.seats), locale=self.lang))
        self.write_png(table, f"{table.moves:04d}", fw_render.map_image(
            view, names=seat_names(table.seats), locale=self.lang, card_names=card_names(self.lang)))

    def floor_plan_images(self, table: Table, events: list[Event]) -> None:
        closed = next((e for e in events if e.kind == "round_closed"), None)
        if closed is None:
            return
        state, rules = table.state, table.rules
        view = rules.view(state, None)
        view = {**view, "round": closed.data["round"], "roll": closed.data.get("roll") or view["roll"],
                "to_move": []}  # as the bot's summary: the round just closed, nobody waits in it
        seats = range(state.players) if state.players <= 6 else []  # past 6 the summary is a leaderboard
        sheets = [rules.sheet_view(state, i) for i in seats]
        label = f"round{closed.data['round']:02d}"
        self.write_png(table, label, fp_render.render_summary(view, sheets or None, names=seat_names(table.seats),
                                                                  locale=self.lang))
        for seat in seats:
            self.write_png(table, f"{label}-sheet{seat + 1}", fp_render.render_sheet(
                sheets[seat], name=seat_names(table.seats)[seat], locale=self.lang))

    def caption(self, result: ActResult) -> list[Line]:
        table = result.table
        if table.game == "flying_blades":
            return fb_caption(table, result, self.lang)
        if table.game == "floor_plan":
            return fp_caption(table, result, self.lang, self.hidden)
        if table.game == "the_floor":
            return tf_caption(table, result, self.lang)
        if table.game == "floating_world":
            return fw_caption(table, result, self.lang)
        if table.game == "floating_floors":
            return ff_caption(table, result, self.lang)
        return [t("cli.moved", self.lang, name=seat_names(table.seats)[result.seat], action=result.action)]

    def announce(self, results: list[ActResult]) -> None:
        """Captions of the moves, consecutive hidden choices of a kind in one line, and the images."""
        group: list[Hidden] = []
        for result in results:
            for line in self.caption(result):
                if isinstance(line, Hidden) and (not group or group[0].key == line.key):
                    group.append(line)
                    continue
                self.say_hidden(group)
                group = [line] if isinstance(line, Hidden) else []
                if isinstance(line, str):
                    print(line)
            if not quiet(result):
                self.save_images(result.table, result.events)
        self.say_hidden(group)

    def say_hidden(self, group: list[Hidden]) -> None:
        if group:
            names = list(dict.fromkeys(h.name for h in group))
            self.say(group[0].key, names=", ".join(names), count=len(names))

    async def run(self) -> int:
        table = await self.setup()
        if table.game == "floor_plan":  # a resumed round's drawings so far, to show when it closes
            self.hidden = {i: fp_words(a, self.lang) for i, a in enumerate(table.state.actions) if a}
        if table.moves == 0:
            self.save_images(table)
        if not table.humans_to_move():  # else the prompt shows the board: the opening state is printed once
            self.show(table, None)
        while table.status == "active":
            self.announce(await self.engine.play_bots(table.id))
            table = await self.engine.get(table.id)
            if table.status != "active":
                break
            humans = table.humans_to_move()
            if not humans:
                continue
            self.show(table, humans[0])
            if not await self.prompt(table, humans[0]):
                # After --new the same command would start yet another game: name the save instead.
                self.say("cli.saved_new" if self.settings.new else "cli.saved", db=str(self.engine.store.path),
                         save=save_name(table), prog=PROG, game=table.game)
                return 0
            table = await self.engine.get(table.id)
        self.show_final(table)
        self.finish(table)
        record = self.settings.out / f"{table.game}-{table.id}.txt"
        self.settings.out.mkdir(parents=True, exist_ok=True)
        record.write_text(await self.engine.record(table.id), encoding="utf-8")
        self.say("cli.record", path=str(record), count=self.images)
        self.say("cli.seed", seed=table.seed)
        return 0

    def first_prompt_lines(self, table: Table, seat: int) -> None:
        """Night of the 27 Ninja's card choice: the hand with prices and the budget, before the first keep."""
        if table.game == "flying_blades" and table.state.phase == "draft":
            for line in fb_legal(table, seat, self.lang):
                print(line)

    async def prompt(self, table: Table, seat: int) -> bool:
        """One human move; returns False when the player quits (the game stays saved)."""
        shown = time.monotonic()  # a game with clocks (The Floor's duels) is charged from the prompt
        self.first_prompt_lines(table, seat)
        while True:
            try:
                text = self.read(t("cli.prompt", self.lang, name=seat_names(table.seats)[seat])).strip()
            except EOFError:  # the keyboard closed: end the prompt's line
                print()
                return False
            if text in ("quit", "exit"):
                return False
            if text in ("help", "?"):
                print("\n".join(help_lines(table, seat, self.lang)))
                continue
            if text == "legal":
                print("\n".join(legal_lines(table, seat, self.lang)))
                continue
            if not text:
                continue
            if table.game == "floating_floors" and text.lower().startswith(("? ", "whatif ")):
                print(ff_whatif(table, seat, text.split(None, 1)[1], self.lang))
                continue
            typed = suggestion_numbered(table, seat, text)
            read_duel = getattr(table.rules, "typed_action", None)  # The Floor: a duel's answers, then its turns
            if read_duel is not None:
                action = read_duel(table.state, typed, int((time.monotonic() - shown) * 1000))
            else:
                action = typed_text(table.game, typed)  # Discord's reading: `pas` is `pass`
            try:
                result = await self.engine.act(table.id, table.seats[seat].user_id or 0, action)
            except FloorboardError as e:
                said = action if read_duel is not None else typed  # a duel's answer is never a typo of a verb
                print(typo_hint(table, seat, said, self.lang) or t(terminal_words(e.msg), self.lang))
                continue
            self.announce([result])
            return True

    def finish(self, table: Table) -> None:
        if table.outcome is None:
            self.say("cli.aborted")
            return
        names = seat_names(table.seats)
        winners = ", ".join(names[w] for w in table.outcome.winners)
        self.say("cli.result", winners=winners or "—", count=max(len(table.outcome.winners), 1))
        if table.game == "floating_world" and table.outcome.reason:  # co-op: how the world ended
            self.say(table.outcome.reason)
        for place, group in enumerate(table.outcome.ranking, start=1):
            for seat in group:
                self.say("cli.rank", place=place, name=names[seat], score=f"{table.outcome.scores[seat]:g}")


def final_sheet_seats(table: Table) -> list[int]:
    """Whose final Floor Plan sheet the terminal shows: every human's (hot seat), else the winners'."""
    humans = [i for i, seat in enumerate(table.seats) if not seat.bot]
    winners = list(table.outcome.winners) if table.outcome is not None else [0]
    return (humans or winners)[:FINAL_SHEETS]


async def run(settings: Settings, read: Read = input) -> int:
    try:
        store = await open_store(settings.db)
    except StorageOpenError as e:
        print(t("cli.err.db", settings.lang, path=e.path, reason=e.reason), file=sys.stderr)
        return EXIT_STORAGE
    engine, told = Engine(store), set[int]()
    engine.add_listener(damaged_notice(settings, told))
    try:
        return await TerminalGame(engine, settings, read).run()
    except DamagedGameError as e:  # the save this command resumes: the notice above said it once; then one line
        if e.table_id not in told:
            shell = await engine.damaged_shell(e.table_id)
            save = settings.save or (save_name(shell) if shell is not None else f"#{e.table_id}")
            print(t("cli.damaged_save", settings.lang, save=save, command=drop_command(save, settings.db)),
                  file=sys.stderr)
        return EXIT_ERROR
    except FloorboardError as e:  # never a traceback
        print(t(e.msg, settings.lang), file=sys.stderr)
        return EXIT_ERROR
    finally:
        await store.close()
