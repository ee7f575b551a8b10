"""The Floor's prompts: what the next actor is asked, the duel's letters and the judges' calls, their deadlines."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from cogs.the_floor.basics import (
    CLOCK_META,
    DRAFT_META,
    GRACE,
    LETTER_META,
    POSTED_META,
    READY_META,
    SIDE_EMOJI_BY_SIDE,
    SILENCE,
    VOTE_META,
    answer_text,
    relative,
    seconds,
    stamp_ms,
)
from cogs.the_floor.components import TheFloorButton
from cogs.utils.app import App
from engine import Table
from i18n import t
from rules.base import FloorboardError
from rules.the_floor import board as bd
from rules.the_floor.bot import default_take
from rules.the_floor.options import DEAL

log = logging.getLogger(__name__)


class DuelPrompts:
    """What the next actor is asked (pings, buttons), the duel's and the judges' calls, and their deadlines."""

    def prompt(self, table: Table, locale: str) -> tuple[list[str], list[int], list[discord.ui.Item[Any]],
                                                         dict[str, Any]]:
        """What the next actor is asked: lines, user ids to ping, buttons, extra send kwargs."""
        s = table.state
        if table.status != "active" or s is None:
            return ([t("bot.aborted", locale, table=table.id)] if table.status == "aborted" else []), [], [], {}
        humans = set(table.humans_to_move())

        def button(action: str) -> TheFloorButton:
            return TheFloorButton.make(action, table, locale)

        if s.phase == "draft":  # `/board`; the draft's own posts are `publish_draft`'s
            line = t("tfui.prompt.draft", locale, who=self.mentions(table, humans), n=len(s.picked[0]) + 1,
                     total=DEAL[s.sides] - 1)
            return [line], self.pings(table, humans), [button("pick")], {}
        if s.pending:
            return self.pending_prompt(table, humans, locale)
        d = s.duel
        if d is not None:
            return self.duel_prompt(table, humans, locale)
        move = self.example(table, min(humans)) if humans else None
        line = t("tfui.prompt.challenge", locale, who=self.side_mention(table, s.current, locale),
                 round=s.round) + (t("tfui.prompt.typed", locale, move=move) if move else "")
        return [line], self.pings(table, humans), [button("challenge")], {}

    def mentions(self, table: Table, seats: set[int]) -> str:
        return ", ".join(self.seat_mention(table, i, "") for i in sorted(seats))

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        side = self.side_of(table, seat)
        return f"{SIDE_EMOJI_BY_SIDE[side]} <@{info.user_id}>"

    def pending_prompt(self, table: Table, humans: set[int], locale: str) -> tuple[list[str], list[int],
                                                                                  list[Any], dict[str, Any]]:
        s = table.state
        p = s.pending[0]
        who = self.side_mention(table, p.side, locale)
        items: list[Any] = [TheFloorButton.make("choose", table, locale)]
        if p.kind == "take":
            suggestion = ",".join(bd.name(c) for c in default_take(s, p.side, p.cells, p.count))
            line = t("tfui.prompt.take", locale, who=who, count=p.count, cells=", ".join(bd.name(c) for c in p.cells),
                     suggestion=suggestion)
            items.append(TheFloorButton.make("suggest", table, locale))
        elif p.kind == "keep":
            line = t("tfui.prompt.keep", locale, who=who, cells=", ".join(bd.name(c) for c in p.cells),
                     count=len(p.options))
        elif p.kind == "final":
            line = t("tfui.prompt.final_card", locale, who=who, count=len(p.options))
        else:
            options = ", ".join(self.cat(table, c) for c in p.options)
            line = t("tfui.prompt.final_pick", locale, who=who, options=options)
        return [line], self.pings(table, humans), items, {}

    def duel_prompt(self, table: Table, humans: set[int], locale: str) -> tuple[list[str], list[int],
                                                                               list[Any], dict[str, Any]]:
        s = table.state
        d = s.duel
        now = self.bot.now() if self.bot is not None else datetime.now().astimezone()
        pair = (d.challenger, d.defender)
        category = self.cat(table, d.category)
        if not d.started:
            due = table.meta.get(READY_META)
            deadline = t("tfui.prompt.ready_deadline", locale, when=relative(datetime.fromisoformat(due))) \
                if due else ""
            line = t("tfui.prompt.ready", locale, a=self.side_mention(table, d.challenger, locale),
                     b=self.side_mention(table, d.defender, locale), category=category,
                     clock=s.clock_s) + deadline
            return [line], self.pings(table, humans), [TheFloorButton.make("ready", table, locale)], {}
        if d.judging:
            due = self.vote_due(table, now)
            when = " " + relative(due) if due else ""
            judges = set(table.rules.judge_seats(s))
            who, pings = self.judge_call(table, judges, locale)
            line = t("tfui.prompt.judge", locale, answer=answer_text(d.judging), category=category, letter=d.letter,
                     who=who, when=when)
            items = [TheFloorButton.make("accept", table, locale), TheFloorButton.make("reject", table, locale)]
            return [line], pings, items, {}
        runner = pair[d.active]
        left = d.clocks[d.active]
        clock = table.meta.get(CLOCK_META) or {}
        if clock.get("turn") == s.turn:  # the letter is out already (``/board``): its clock started then
            now = datetime.fromtimestamp(int(clock["base"]) / 1000, tz=UTC)
        line = t("tfui.prompt.letter", locale, letter=d.letter, category=category,
                 who=self.side_mention(table, runner, locale), left=seconds(left),
                 when=relative(now + timedelta(milliseconds=left)),
                 other=seconds(d.clocks[1 - d.active]))
        items = [TheFloorButton.make("pass", table, locale)]
        if table.rules.disputable(s):  # never offered with nobody outside the duel to judge it
            items.append(TheFloorButton.make("dispute", table, locale))
        return [line], self.pings(table, humans) if self.needs_call(table) else [], items, {}

    def judge_call(self, table: Table, judges: set[int], locale: str) -> tuple[str, list[int]]:
        """Who is asked to vote and pinged: the neutral seats, the referee (when not seated: a seated one is
        among the seats or duelling), and the thread's spectators when no seat can judge."""
        s = table.state
        who, pings = [self.mentions(table, judges)] if judges else [], self.pings(table, judges)
        if table.rules.guests_judge(s):
            if s.referee and table.seat_of(s.referee) is None:
                who.append(t("tfui.vote_referee", locale, who=f"<@{s.referee}>"))
                pings.append(s.referee)
            if s.spectators and not judges and not table.rules.judge_seats(s):
                who.append(t("tfui.vote_spectators", locale))
        return ", ".join(who) or t("tfui.vote_nobody", locale), pings

    def needs_call(self, table: Table) -> bool:
        """Whether a letter pings the side to answer: its first letter of the duel, or after a long silence (a
        vote, a restart); in between, the duellists are mid-exchange and a ping per answer is noise."""
        d = table.state.duel
        if not any(entry[0] == d.active for entry in d.log) or d.log[-1][2] in ("judged", "rejected"):
            return True  # its first letter, or the clock restarts after the judges (the clock stood still)
        at = table.meta.get(LETTER_META)
        now = self.bot.now() if self.bot is not None else datetime.now(UTC)
        return at is None or now - datetime.fromisoformat(at) >= SILENCE

    async def after_prompt(self, bot: App, table: Table, message: Any,
                           extra: dict[str, Any] | None = None) -> None:
        """Bookkeeping once a prompt is out, in one write: that it is out (``tf_posted``: a restart before it
        re-posts it), the duel clock's base, and the timer of the step now waiting."""
        s = table.state
        if table.status != "active" or s is None:
            return
        posted = {POSTED_META: s.turn, **(extra or {})}
        d = s.duel
        engine = bot.engine
        now = bot.now()
        armed = True
        try:
            if s.phase == "draft":
                armed = await self.arm_draft(bot, table, posted)
            elif d is None:
                await engine.set_meta(table.id, **posted)
            elif not d.started:
                armed = await self.arm_ready(bot, table, posted)
            elif d.judging:
                due = self.vote_due(table, now)
                judges = table.rules.judge_seats(s) or sorted(table.to_move())  # an old state: the opponent closes
                if due and judges:
                    posted[VOTE_META] = {"key": self.vote_key(table), "due": due.isoformat()}
                    armed = await engine.arm_timer(table.id, version=table.version, seat=judges[0],
                                                   action="timeout", due_at=due, meta=posted)
                else:
                    await engine.set_meta(table.id, **posted)
            else:
                message_id = getattr(message, "id", None)
                base = stamp_ms(message_id) if message_id else int(now.timestamp() * 1000)
                runner = sorted(table.to_move())[0]
                left = timedelta(milliseconds=d.clocks[d.active])
                armed = await engine.arm_timer(table.id, version=table.version, seat=runner, action="timeout",
                                               due_at=now + left + GRACE,
                                               meta={CLOCK_META: {"turn": s.turn, "base": base},
                                                     LETTER_META: now.isoformat(), **posted})
        except FloorboardError:
            armed = False
        if not armed:  # the next move's own post arms its step
            log.info("table %s moved on before its prompt's timers were armed", table.id)

    def vote_key(self, table: Table) -> str:
        s = table.state
        d = s.duel
        return f"{s.turn_no}:{s.ladder_pos}:{len(d.log)}:{d.active}:{d.judging}"

    def vote_due(self, table: Table, now: datetime) -> datetime | None:
        """The vote deadline (``vote_seconds``; None = no deadline), fixed when the answer went to the judges:
        a vote cast re-posts the prompt but must not push the deadline back while the clock stands still."""
        vote = int(table.options.get("vote_seconds", 20))
        if not vote:
            return None
        saved = table.meta.get(VOTE_META) or {}
        if saved.get("key") == self.vote_key(table) and saved.get("due"):
            return datetime.fromisoformat(saved["due"])
        return now + timedelta(seconds=vote)

    async def fix_ready_deadline(self, bot: App, table: Table) -> Table:
        """The Ready deadline is fixed when a duel is announced (kept in meta for the duel: each Ready re-arms
        the same deadline for whoever is still missing)."""
        s = table.state
        minutes = int(table.options.get("ready_minutes", 0))
        if table.status != "active" or s is None or s.duel is None or s.duel.started or not minutes:
            return table
        key = f"{s.round}:{s.turn_no}:{s.ladder_pos}"
        if table.meta.get(READY_META + "_key") == key:
            return table
        due = bot.now() + timedelta(minutes=minutes)
        return await bot.engine.set_meta(table.id, **{READY_META: due.isoformat(), READY_META + "_key": key})

    async def arm_draft(self, bot: App, table: Table, meta: dict[str, Any]) -> bool:
        """A draft pass's deadline (``draft_minutes``, fixed when the pass opened): the default pick for one
        player still picking; that post re-arms it for the next, so every straggler gets one."""
        due = (meta.get(DRAFT_META) or table.meta.get(DRAFT_META) or {}).get("due")
        humans = sorted(table.humans_to_move())
        if not due or not humans:
            await bot.engine.set_meta(table.id, **meta)
            return True
        seat = humans[0]
        armed = await bot.engine.arm_timer(table.id, version=table.version, seat=seat,
                                           action=table.rules.default_action(table.state, seat),
                                           due_at=datetime.fromisoformat(due), meta=meta)
        if not armed:  # a pick got in first (its own post re-arms): the draft's message id must still be kept
            await bot.engine.set_meta(table.id, **meta)
        return True

    async def arm_ready(self, bot: App, table: Table, meta: dict[str, Any]) -> bool:
        s = table.state
        d = s.duel
        due_text = table.meta.get(READY_META)
        if not int(table.options.get("ready_minutes", 0)) or not due_text:
            await bot.engine.set_meta(table.id, **meta)
            return True
        absent = d.challenger if not d.ready[0] else d.defender
        return await bot.engine.arm_timer(table.id, version=table.version, seat=s.seats_of(absent)[0],
                                          action="timeout", due_at=datetime.fromisoformat(due_text), meta=meta)

    async def on_notice(self, bot: App, channel: Any, notice: Any, locale: str) -> bool:
        if notice.kind != "timeout":
            return False
        results = notice.results()
        await self.publish(bot, channel, [self.segment(r, locale) for r in results], locale)
        return True
