"""The Floor's draft posting: one message kept current, pinging only whoever the draft waits for."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

import discord

from cogs.the_floor.basics import DRAFT_META, LEARN_META, MAX_ANSWER, MAX_LEARN, PRESENT, relative
from cogs.the_floor.components import TheFloorButton
from cogs.utils.app import App
from cogs.utils.components import view_of
from cogs.utils.posting import pinging
from cogs.utils.surface import Segment
from cogs.utils.text import clean, clip
from engine import Table
from i18n import t
from rules.the_floor.options import DEAL, DRAFT_TIMER

log = logging.getLogger(__name__)


class DraftPosting:
    """The draft's one message: posted once, edited as picks come in, pinging only whoever it waits for."""

    # --- the draft: one message kept current; pings only for whoever the draft waits for ----------------

    async def publish_draft(self, bot: App, channel: Any, segments: list[Segment], locale: str,
                            first: Any) -> list[Any]:
        """The draft's message is posted once (it pings everyone: the game starts) and then edited as picks come
        in. A new pass pings only those who have not been around for a while (whoever just picked is), and once most
        sides have picked, whoever the draft still waits for is pinged once. Nothing here shows a hand."""
        table = segments[-1].table
        async with self.draft_locks.setdefault(table.id, asyncio.Lock()):
            table = await bot.engine.get(table.id)
            if table.status != "active" or table.state.phase != "draft":
                return await self.publish_post(bot, channel, segments, locale, first)
            now = bot.now()
            meta = self.draft_meta(table, segments, now)
            lines = [seg.line for seg in segments if seg.line]
            sent: list[Any] = []
            if not meta.get("msg") or lines:
                meta["intro"] = not meta.get("msg") and any(seg.result is None and seg.line for seg in segments)
                message = await self.send_draft(channel, table, meta, lines, locale, first)
                meta["msg"] = message.id
                sent.append(message)
            else:
                await self.edit_draft(channel, table, meta, locale)
                call = self.draft_call(table, meta, now)
                if call:
                    sent.append(await self.send_call(channel, table, meta, call, locale, first))
                elif first is not None:  # a /move pick: its deferred reply still needs an answer
                    sent.append(await first(content=t("tfui.draft.noted", locale), allowed_mentions=pinging([])))
            await self.after_prompt(bot, table, None, extra={DRAFT_META: meta})
            await bot.status_messages.update(table, locale)
            return sent

    def draft_meta(self, table: Table, segments: list[Segment], now: datetime) -> dict[str, Any]:
        """The draft's bookkeeping: its message, the pass it shows, when each player last picked by hand, who
        was pinged this pass and when the pass's default pick falls due."""
        s = table.state
        if not table.meta.get(DRAFT_META) and (s.picked[0] or any(s.chosen)):
            meta: dict[str, Any] = {"legacy": True}  # a draft saved before this message: its old pace and no timer
        else:
            meta = dict(table.meta.get(DRAFT_META) or {})
        picked = dict(meta.get("picked") or {})
        for seg in segments:
            r = seg.result
            if r is not None and r.source != "timer" and r.action.startswith("pick") and r.seat is not None:
                picked[str(r.seat)] = now.isoformat()  # a timer's pick is no sign of anyone being here
        meta["picked"] = picked
        n = len(s.picked[0]) + 1
        if meta.get("pass") != n:
            minutes = 0 if meta.get("legacy") else int(table.options.get(DRAFT_TIMER[0], DRAFT_TIMER[1][0]))
            meta.update({"pass": n, "opened": now.isoformat(), "new": True, "waited": False,
                         "due": (now + timedelta(minutes=minutes)).isoformat() if minutes else None})
        return meta

    def draft_call(self, table: Table, meta: dict[str, Any], now: datetime) -> list[int]:
        """Seats to ping now: at a new pass, those who picked a while ago (or never by hand); later, once, the
        stragglers when most sides have picked and the pass has been open a while."""
        s = table.state
        humans = sorted(table.humans_to_move())
        picked = meta.get("picked", {})
        if meta.pop("new", False):
            return [i for i in humans if (at := picked.get(str(i))) is None
                    or now - datetime.fromisoformat(at) >= PRESENT]
        left = sum(1 for x in range(s.sides) if not s.chosen[x] and not s.resigned[x])
        if not humans or meta.get("waited") or left * 2 > s.sides \
                or now - datetime.fromisoformat(meta["opened"]) < PRESENT:
            return []  # most still pick, or the pass is young: no one holds the draft up yet
        meta["waited"] = True
        return humans

    def draft_text(self, table: Table, meta: dict[str, Any], locale: str) -> str:
        """Pass n of total, who has picked and who is still picking (names only), the default pick's time."""
        s = table.state
        done = [x for x in range(s.sides) if s.chosen[x] and not s.resigned[x]]
        left = [x for x in range(s.sides) if not s.chosen[x] and not s.resigned[x]]
        nobody = t("tfui.draft.nobody", locale)
        due = meta.get("due")
        deadline = t("tfui.draft.deadline", locale, when=relative(datetime.fromisoformat(due))) if due else ""
        return t("tfui.draft.status", locale, n=meta["pass"], total=DEAL[s.sides] - 1,
                 done=", ".join(self.side_label(table, x, locale) for x in done) or nobody,
                 waiting=", ".join(self.side_label(table, x, locale) for x in left) or nobody) + deadline

    async def send_draft(self, channel: Any, table: Table, meta: dict[str, Any], lines: list[str], locale: str,
                         first: Any) -> Any:
        """No board image: it would go stale as the message is edited (the board follows the draft)."""
        humans = set(table.humans_to_move())
        call = t("tfui.draft.call", locale, who=self.mentions(table, humans)) if humans else ""
        meta.pop("new", None)
        kw: dict[str, Any] = {"content": self.content([*lines, call, self.draft_text(table, meta, locale)]),
                              "view": view_of([TheFloorButton.make("pick", table, locale)]),
                              "allowed_mentions": pinging(self.pings(table, humans))}
        return await (first or channel.send)(**kw)

    async def edit_draft(self, channel: Any, table: Table, meta: dict[str, Any], locale: str) -> None:
        """Edits notify no one: the pings are new messages (`send_call`)."""
        try:
            content = self.content([*self.kept_intro(table, meta, locale), self.draft_text(table, meta, locale)])
            await channel.get_partial_message(int(meta["msg"])).edit(content=content)
        except (discord.HTTPException, AttributeError) as e:  # an old or deleted message: the call says it all
            log.info("table %s: the draft message was not edited (%s)", table.id, e)

    async def send_call(self, channel: Any, table: Table, meta: dict[str, Any], seats: list[int], locale: str,
                        first: Any) -> Any:
        key = "tfui.draft.waiting" if meta.get("waited") else "tfui.draft.pass"
        due = meta.get("due")
        deadline = t("tfui.draft.deadline", locale, when=relative(datetime.fromisoformat(due))) if due else ""
        content = t(key, locale, who=self.mentions(table, set(seats)), n=meta["pass"],
                    total=DEAL[table.state.sides] - 1) + deadline
        return await (first or channel.send)(content=content, allowed_mentions=pinging(self.pings(table, set(seats))),
                                             view=view_of([TheFloorButton.make("pick", table, locale)]))

    def kept_intro(self, table: Table, meta: dict[str, Any], locale: str) -> list[str]:
        """The game's opening lines stay on the draft's message when it opened the game."""
        return [self.intro(table, locale)] if meta.get("intro") else []

    async def close_draft(self, bot: App, channel: Any, segments: list[Segment], locale: str) -> None:
        """The draft is over: its message says so (the board follows in a new message)."""
        if not any(e.kind == "draft_done" for seg in segments if seg.result for e in seg.result.events):
            return
        table = await bot.engine.get(segments[-1].table.id)
        meta = table.meta.get(DRAFT_META) or {}
        if not meta.get("msg"):
            return
        try:
            content = self.content([*self.kept_intro(table, meta, locale), t("tfui.draft.done", locale)])
            await channel.get_partial_message(int(meta["msg"])).edit(content=content, view=None)
        except (discord.HTTPException, AttributeError) as e:
            log.info("table %s: the draft message was not closed (%s)", table.id, e)

    async def judged_answers(self, bot: App, segments: list[Segment], locale: str) -> list[Any]:
        """An answer the judges accepted can be added to the server's own list: remember it (by the version it
        was accepted at) and offer the host or an admin an Add button."""
        items: list[Any] = []
        for seg in segments:
            r = seg.result
            if r is None or not any(e.kind == "judged" and e.data.get("accepted") for e in r.events):
                continue
            d = r.table.state.duel
            judged = [x for x in (d.log if d is not None else ()) if x[2] == "judged"]
            if not judged:
                continue
            table = await bot.engine.get(r.table.id)
            learn = dict(table.meta.get(LEARN_META, {}))
            learn[str(r.table.version)] = [r.table.state.lang, d.category, judged[-1][1]]
            keep = dict(sorted(learn.items(), key=lambda kv: int(kv[0]))[-MAX_LEARN:])
            await bot.engine.set_meta(table.id, **{LEARN_META: keep})
            items.append(TheFloorButton("learn", r.table.id, r.table.version,
                                        label=clip(t("tfui.button.learn", locale,
                                                     answer=clean(judged[-1][1], MAX_ANSWER)), 80)))
        return items
