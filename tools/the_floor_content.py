"""Generate The Floor's content: ``python -m tools.the_floor_content`` (deterministic, re-runnable).

Writes ``data/the_floor/{pl,en}/categories.json`` and ``data/the_floor/letters.json`` from
  - Babel's localized country, language and currency names (countries of the world and per continent, languages,
    currencies), with a few display overrides and common variants typed below;
  - hand-written lists in ``tools/the_floor/{pl,en}.txt``: a header line ``@ id | Name | flags`` (flags
    space-separated), then answers separated by commas over any number of lines; ``#`` starts a comment line.
    ``a = b = c`` is ONE answer: ``a`` is shown, ``b`` and ``c`` are other names of the same thing (a synonym, a
    spelling, an inflection, a translation) that the checker accepts as ``a`` — naming ``b`` after ``a`` is a
    repeat, and ``b`` counts for its own letter. A comma inside a name is written ``\\,`` ("The Good\\, the Bad
    and the Ugly"); the names in ``COMMA_NAMES`` are kept whole without it ("Washington, D.C.").
Answers that normalize to the same form within a category are dropped (first kept), with a warning; two separate
answers of a category that name one thing by ``tools/the_floor/synonyms.txt`` (curated groups) or by the checker's
singular/plural rules ("aster"/"astry") are warned about (list them as ``a = b``), unless listed in ``DISTINCT``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel import Locale

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.the_floor.answers import normalize, number_forms  # noqa: E402
from rules.the_floor.content import EXCLUDED_LETTERS, LANGS, validate_category  # noqa: E402

SOURCES = Path(__file__).resolve().parent / "the_floor"
SYNONYMS = SOURCES / "synonyms.txt"
OUT = ROOT / "data" / "the_floor"

REGIONS = {
    "europe": "AL AD AT BY BE BA BG HR CY CZ DK EE FI FR DE GR HU IS IE IT XK LV LI LT LU MT MD MC ME NL MK NO PL PT "
    "RO RU SM RS SK SI ES SE CH UA GB VA",
    "africa": "DZ AO BJ BW BF BI CV CM CF TD KM CD CG CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR "
    "MU MA MZ NA NE NG RW ST SN SC SL SO ZA SS SD TZ TG TN UG ZM ZW",
    "asia": "AF AM AZ BH BD BT BN KH CN GE IN ID IR IQ IL JP JO KZ KW KG LA LB MY MV MN MM NP KP OM PK PS PH QA SA SG "
    "KR LK SY TW TJ TH TL TR TM AE UZ VN YE",
    "americas": "AG AR BS BB BZ BO BR CA CL CO CR CU DM DO EC SV GD GT GY HT HN JM MX NI PA PY PE KN LC VC SR TT "
    "US UY VE",
    "oceania": "AU FJ KI MH FM NR NZ PW PG WS SB TO TV VU",
}
REGION_NAMES = {
    "pl": {"europe": "Państwa Europy", "africa": "Państwa Afryki", "asia": "Państwa Azji",
           "americas": "Państwa obu Ameryk"},
    "en": {"europe": "European countries", "africa": "African countries", "asia": "Asian countries",
           "americas": "Countries of the Americas"},
}
COUNTRY_NAMES = {
    "pl": {"MM": "Mjanma", "HK": "Hongkong", "PS": "Palestyna", "CI": "Wybrzeże Kości Słoniowej"},
    "en": {"CD": "DR Congo", "CG": "Republic of the Congo", "MM": "Myanmar", "TR": "Turkey", "PS": "Palestine",
           "CZ": "Czech Republic", "TL": "East Timor", "CI": "Ivory Coast", "VA": "Vatican City"},
}
COUNTRY_VARIANTS = {
    "pl": {"US": ["USA", "Ameryka", "Stany"], "GB": ["UK", "Zjednoczone Królestwo"], "NL": ["Niderlandy"],
           "MM": ["Birma"], "CZ": ["Republika Czeska"], "MK": ["Macedonia"], "CI": ["Côte d’Ivoire"],
           "CD": ["Kongo Kinszasa", "DRK"], "CG": ["Kongo Brazzaville"], "SZ": ["Suazi"],
           "DO": ["Republika Dominikańska"],
           "CV": ["Wyspy Zielonego Przylądka"], "AE": ["Emiraty", "ZEA"], "RU": ["Federacja Rosyjska"],
           "KR": ["Korea Płd"], "KP": ["Korea Płn"], "TL": ["Timor"]},
    "en": {"US": ["USA", "United States of America", "America", "US"], "GB": ["UK", "Britain", "Great Britain"],
           "NL": ["Holland", "The Netherlands"], "CZ": ["Czechia"], "MK": ["Macedonia"], "MM": ["Burma"],
           "TR": ["Türkiye"], "CD": ["Democratic Republic of the Congo", "Congo-Kinshasa", "DRC"],
           "CG": ["Congo-Brazzaville"], "CI": ["Côte d’Ivoire"], "SZ": ["Swaziland"], "CV": ["Cabo Verde"],
           "TL": ["Timor-Leste"], "AE": ["UAE", "Emirates"], "VA": ["Vatican", "Holy See"], "KR": ["Korea"],
           "BA": ["Bosnia"], "PH": ["The Philippines"], "GM": ["The Gambia"], "BS": ["The Bahamas"]},
}
LANGUAGE_CODES = (
    "en pl de fr es it pt ru uk be cs sk hu ro bg sr hr bs sl mk sq el tr ar he fa hi bn ur pa ta te zh ja ko vi th id "
    "ms tl sw am yo zu xh af nl da sv no fi et lv lt is ga cy gd eu ca gl la eo ka hy az kk uz ky tk tg mn ne si km lo "
    "my ha so mt lb fo csb szl hsb yi br co sa ps ku mi haw gu mr kn ml qu gn ig rw mg sm to fj oc"
)
CURRENCY_CODES = (
    "PLN EUR USD GBP CHF JPY CNY RUB UAH CZK HUF SEK NOK DKK ISK RON BGN RSD TRY INR KRW AUD CAD NZD MXN BRL ARS CLP "
    "COP PEN ZAR EGP MAD NGN KES ILS SAR AED THB VND IDR MYR SGD HKD PHP PKR BYN GEL KZT MNT ALL MKD BAM MDL AMD AZN "
    "IRR IQD JOD KWD QAR LKR BDT NPR AFN UZS ETB GHS TZS UGX TND DZD CUP VES BOB UYU PYG"
)
LANGUAGE_VARIANTS = {
    "pl": {"perski": ["farsi"], "suahili": ["swahili"], "pendżabski": ["pundżabi"]},
    "en": {"Bangla": ["Bengali"], "Persian": ["Farsi"], "Swahili": ["Kiswahili"], "Punjabi": ["Panjabi"]},
}
BABEL_TITLES = {
    "pl": {"countries": "Państwa świata", "languages": "Języki", "currencies": "Waluty"},
    "en": {"countries": "Countries of the world", "languages": "Languages", "currencies": "Currencies"},
}


def clean_babel(name: str, lang: str) -> str:
    if lang == "en":
        name = name.replace(" & ", " and ").replace("St. ", "Saint ")
    return name


def country(code: str, lang: str) -> str:
    return COUNTRY_NAMES[lang].get(code) or clean_babel(Locale(lang).territories[code], lang)


def country_category(cid: str, name: str, codes: list[str], lang: str) -> dict:
    answers = [country(c, lang) for c in codes]
    variants = {country(c, lang): COUNTRY_VARIANTS[lang][c] for c in codes if c in COUNTRY_VARIANTS[lang]}
    return {"id": cid, "name": name, "flags": [], "answers": answers, "variants": variants}


def babel_categories(lang: str) -> list[dict]:
    loc = Locale(lang)
    every = [c for region in REGIONS.values() for c in region.split()]
    cats = [country_category("countries", BABEL_TITLES[lang]["countries"], every, lang)]
    for region, title in REGION_NAMES[lang].items():
        cats.append(country_category(f"countries_{region}", title, REGIONS[region].split(), lang))
    languages = [loc.languages[c] for c in LANGUAGE_CODES.split()]
    languages = [(name[0].upper() + name[1:]) if lang == "en" else name for name in languages]
    variants = {name: LANGUAGE_VARIANTS[lang][name] for name in languages if name in LANGUAGE_VARIANTS[lang]}
    cats.append({"id": "languages", "name": BABEL_TITLES[lang]["languages"], "flags": [], "answers": languages,
                 "variants": variants})
    currencies = [clean_babel(loc.currencies[c], lang) for c in CURRENCY_CODES.split()]
    # "złoty polski" may be answered "złoty", "Japanese Yen" as "yen": the distinctive word alone is a variant.
    word_index = 0 if lang == "pl" else -1
    words = [c.split()[word_index] for c in currencies]
    variants = {c: [w] for c, w in zip(currencies, words, strict=True) if words.count(w) == 1 and w != c}
    cats.append(
        {"id": "currencies", "name": BABEL_TITLES[lang]["currencies"], "flags": [], "answers": currencies,
         "variants": variants}
    )
    return cats


# Different answers that the singular/plural rules would take for one: (lang, category, answer, earlier answer).
DISTINCT = {("en", "programming", "SAS", "Sass"), ("pl", "bajki_postacie", "Dora", "Dory")}

# Answers whose own name has a comma: kept whole when the comma-separated source line is split.
COMMA_NAMES = ("Mary, Queen of Scots", "Washington, D.C.")


def split_answers(line: str) -> list[str]:
    """A source line's comma-separated items, a name listed in ``COMMA_NAMES`` or a comma written ``\\,`` kept
    whole: "Mary, Queen of Scots, Matilda" → ["Mary, Queen of Scots", "Matilda"]."""
    protected = line.replace("\\,", "\0")
    for name in COMMA_NAMES:
        protected = protected.replace(name, name.replace(",", "\0"))
    return [item.replace("\0", ",") for item in protected.split(",")]


def parse(text: str, lang: str) -> list[dict]:
    cats: list[dict] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            cid, name, *rest = (part.strip() for part in line[1:].split("|"))
            flags = rest[0].split() if rest else []
            cats.append({"id": cid, "name": name, "flags": flags, "answers": [], "variants": {}})
            continue
        cat = cats[-1]
        for item in split_answers(line):
            forms = [f.strip() for f in item.split("=") if f.strip()]
            if forms:
                cat["answers"].append(forms[0])
                if forms[1:]:
                    cat["variants"][forms[0]] = forms[1:]
    return cats


def lemma_keys(form: str, lang: str, flags: list[str]) -> tuple[str, set[str]]:
    """One written form's normalized key and the keys it stands for: the key and, in plain categories (not people
    or titles), its singular/plural forms by the checker's own rules ("astry" → "astra", "aster"...)."""
    key = normalize(form, lang, flags)
    if "people" in flags or "titles" in flags:
        return key, {key}
    return key, {key, *number_forms(key, lang)}


def synonym_groups(lang: str) -> list[frozenset[str]]:
    """The curated synonym groups of a language (``tools/the_floor/synonyms.txt``), as sets of normalized keys."""
    groups = []
    for line in SYNONYMS.read_text(encoding="utf-8").splitlines():
        head, sep, rest = line.partition(":")
        if line.startswith("#") or not sep or head.strip() != lang:
            continue
        groups.append(frozenset(normalize(f, lang) for f in rest.split("=") if f.strip()))
    return groups


def same_thing(cat: dict, lang: str, groups: list[frozenset[str]]) -> list[tuple[str, str]]:
    """(answer, an earlier answer of the category that names the same thing): one is the other's singular/plural
    by the checker's rules, or both are in one synonym group — two answers that must be one ``a = b`` entry."""
    flags = cat.get("flags", [])
    earlier: list[tuple[str, set[str], set[str]]] = []  # (answer, own keys and group marks, keys it stands for)
    out = []
    for answer in cat["answers"]:
        own: set[str] = set()
        wide: set[str] = set()
        for form in (answer, *cat.get("variants", {}).get(answer, ())):
            key, keys = lemma_keys(form, lang, flags)
            own.add(key)
            wide |= keys
        marks = {f"group:{i}" for i, group in enumerate(groups) if wide & group}
        own |= marks
        wide |= marks
        hit = next((a for a, a_own, a_wide in earlier if own & a_wide or a_own & wide), None)
        if hit is not None:
            out.append((answer, hit))
        earlier.append((answer, own, wide))
    return out


def dedupe(cat: dict, lang: str) -> dict:
    seen: set[str] = set()
    answers, variants = [], {}
    for answer in cat["answers"]:
        forms = [answer, *cat.get("variants", {}).get(answer, [])]
        keys = [normalize(f, lang, cat["flags"]) for f in forms]
        if keys[0] in seen:
            print(f"warning: {lang}/{cat['id']}: duplicate {answer!r}", file=sys.stderr)
            continue
        kept = [f for f, k in zip(forms[1:], keys[1:], strict=True) if k not in seen and k != keys[0]]
        seen.update(keys)
        answers.append(answer)
        if kept:
            variants[answer] = list(dict.fromkeys(kept))
    out = {"id": cat["id"], "name": cat["name"], "flags": cat["flags"], "answers": answers}
    if variants:
        out["variants"] = variants
    return out


def build(lang: str) -> list[dict]:
    """Every category of that language, deduplicated and validated (nothing is written)."""
    cats = babel_categories(lang) + parse((SOURCES / f"{lang}.txt").read_text(encoding="utf-8"), lang)
    cats = [dedupe(c, lang) for c in cats]
    groups = synonym_groups(lang)
    for c in cats:
        for answer, earlier in same_thing(c, lang, groups):
            if (lang, c["id"], answer, earlier) not in DISTINCT:
                print(f"warning: {lang}/{c['id']}: {answer!r} names {earlier!r} again: list it as a variant",
                      file=sys.stderr)
    ids = [c["id"] for c in cats]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise SystemExit(f"{lang}: duplicate ids {sorted(dupes)}")
    for c in cats:
        validate_category(c, lang)
    return cats


def letter_decks() -> dict[str, list[str]]:
    """The letter decks per language (A–Z without that language's excluded letters), as written to letters.json."""
    return {lang: [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in EXCLUDED_LETTERS[lang]] for lang in LANGS}


def main() -> int:
    for lang in LANGS:
        cats = build(lang)
        path = OUT / lang / "categories.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"categories": cats}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        rich = sum(len(c["answers"]) >= 40 for c in cats)
        print(f"{lang}: {len(cats)} categories, {rich} with 40+ answers")
    (OUT / "letters.json").write_text(json.dumps(letter_decks()) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
