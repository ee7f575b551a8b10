"""What stands in front of every page: security headers, a token bucket per client address (429 past it), and an
error boundary that answers a plain 500 page (the error is logged, never shown)."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from i18n import t
from web.html import esc, negotiate, page

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

HEADERS = {
    # No inline script or style anywhere: the pages' one script and stylesheet are files of this site.
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none';"
                               " form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
RATE = 10.0  # requests a second each address earns, up to BURST at once (a game's 300 board images load lazily)
BURST = 60.0
ADDRESSES_KEPT = 10_000  # buckets remembered; the least recently seen are forgotten (a full bucket again)


class Buckets:
    """One token bucket per client address."""

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, address: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[address] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        return allowed


def locale_of(request: web.Request) -> str:
    return negotiate(request.headers.get("Accept-Language"), request.query.get("lang"))


def plain_page(request: web.Request, status: int, title_key: str, text_key: str) -> web.Response:
    locale = locale_of(request)
    body = page(t(title_key, locale), f"<p>{esc(t(text_key, locale), 500)}</p>", locale, request.path)
    return web.Response(status=status, text=body, content_type="text/html", charset="utf-8")


def middlewares(buckets: Buckets) -> list[Callable[..., Awaitable[web.StreamResponse]]]:
    @web.middleware
    async def headers(request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        response.headers.update(HEADERS)
        return response

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not buckets.take(request.remote or "?"):
            response = plain_page(request, 429, "web.too_many_title", "web.too_many")
            response.headers["Retry-After"] = "5"
            return response
        return await handler(request)

    @web.middleware
    async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return plain_page(request, 404, "web.not_found_title", "web.not_found")
        except web.HTTPException as e:
            if e.status >= 400:  # 405 and the like: the status only, aiohttp's own short text
                return web.Response(status=e.status, text=e.reason, content_type="text/plain")
            raise
        except Exception:
            log.exception("web page %s failed", request.path)
            return plain_page(request, 500, "web.error_title", "web.error")

    return [headers, limit, errors]
