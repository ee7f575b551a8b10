"""Pages as small escaped string templates (no template engine is a dependency): every value a page shows goes
through `esc`, which cleans it as Discord posts do (i18n.text.clean: no control, bidirectional or zero-width
characters, length capped) and then HTML-escapes it. The layout names one stylesheet and one script, both
static files: the CSP forbids inline scripts and styles."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from urllib.parse import urlencode

from i18n import LOCALES, t
from i18n.text import clean

TEXT_LIMIT = 200  # a name or label on a page; longer user text is cut with "…"


def esc(value: object, limit: int = TEXT_LIMIT) -> str:
    return html.escape(clean(str(value), limit), quote=True)


def attr(value: object) -> str:
    """A value inside a quoted attribute (a URL we built, an alt text)."""
    return html.escape(str(value), quote=True)


def negotiate(accept: str | None, chosen: str | None) -> str:
    """The page's language: ``?lang=`` when it names one we have, else the best of Accept-Language, else English."""
    if chosen in LOCALES:
        return chosen
    best, best_q = "en", 0.0
    for part in (accept or "").split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        lang = tag.strip().lower().split("-")[0]
        if lang in LOCALES and q > best_q:
            best, best_q = lang, q
    return best


def link(path: str, locale: str, **query: object) -> str:
    """A link within the site that keeps the chosen language."""
    params = {k: v for k, v in query.items() if v is not None}
    params["lang"] = locale
    return f"{path}?{urlencode(params)}"


def table(caption: str, head: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "") -> str:
    """A semantic table; ``head`` plain text, ``rows`` cells already escaped HTML (the first is the row header)."""
    heads = "".join(f'<th scope="col">{esc(h)}</th>' for h in head)
    body = "".join("<tr>" + "".join((f'<th scope="row">{c}</th>' if i == 0 else f"<td>{c}</td>")
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    klass = f' class="{attr(cls)}"' if cls else ""
    return (f'<div class="scroll"><table{klass}><caption>{esc(caption)}</caption><thead><tr>{heads}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def page(title: str, body: str, locale: str, path: str, *, live: str | None = None) -> str:
    """The whole document. ``live``: the JSON address the script polls while a round runs (data attribute)."""
    other = "pl" if locale == "en" else "en"
    live_attr = f' data-live="{attr(live)}"' if live else ""
    return (f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)} · {esc(t('web.site', locale))}</title>"
            '<link rel="stylesheet" href="/static/site.css"><script src="/static/site.js" defer></script>'
            f"</head><body{live_attr}><header><span class=\"site\">{esc(t('web.site', locale))}</span>"
            f'<a class="lang" href="{attr(link(path, other))}" hreflang="{other}">{esc(t("web.lang_switch", locale))}'
            f"</a></header><main><h1>{esc(title)}</h1>{body}</main></body></html>")
