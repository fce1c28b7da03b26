"""Playing through the page alone: what a person sees and presses, by role and name.

The names are the catalogue's in the page's language: a page opened here with a locale
(``open_player``, ``seat_page``) is remembered with its language, and ``say`` words a key
in it; any other page is taken to be Polish, the browser's language in these tests.
"""

from __future__ import annotations

import json
import re
import string
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.server.harness import Client, Endpoint, simple_move
from tysiac import catalogue
from tysiac.server.http.pages import DOCUMENT_PAGES

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
LOCALES = {"pl": "pl-PL", "en": "en-US", "uk": "uk-UA"}  # a browser speaking each language

_languages: WeakKeyDictionary[Page, str] = WeakKeyDictionary()


def new_page(context: BrowserContext, locale: str) -> Page:
    """A page of ``context``, whose browser speaks ``locale``: the page's language."""
    page = context.new_page()
    _languages[page] = locale.split("-")[0]
    return page


def lang_of(page: Page) -> str:
    return _languages.get(page, catalogue.DEFAULT)


def say(page: Page, key: str, /, **params: object) -> str:
    """The catalogue's text of ``key`` in the page's language."""
    return catalogue.text(key, lang_of(page), **params)


def open_player(
    browser: Browser, url: str, viewport: dict[str, int] = DESKTOP, lang: str = "pl"
) -> Page:
    locale = LOCALES[lang]
    context: BrowserContext = browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    page = new_page(context, locale)
    page.goto(url)
    return page


def seat_page(
    browser: Browser,
    base: str,
    code: str,
    seat: int,
    token: str,
    viewport: dict[str, int] = DESKTOP,
    scheme: str = "light",
    locale: str = "pl-PL",
) -> Page:
    """A browser that holds ``seat`` (its key stored as the game page stores it), at the table."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme, locale=locale)  # type: ignore[arg-type]
    page = new_page(context, locale)
    page.goto(f"{base}/zasady")
    entry = json.dumps({"seat": seat, "token": token, "nick": f"Gracz{seat}"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"tysiac-online:{code}", entry])
    page.goto(f"{base}/g/{code}")
    return page


def create_game(page: Page, nick: str, players: int, **options: Any) -> str:
    """Fill the home page form, create the game; returns the game code from the URL."""
    count = {2: "two", 3: "three", 4: "four"}[players]
    page.get_by_label(say(page, "home.nick"), exact=True).fill(nick)
    page.get_by_label(say(page, f"home.players.{count}")).check()
    if options.get("public"):
        page.get_by_label(say(page, "home.public")).check()
    page.get_by_role("button", name=say(page, "home.create")).click()
    page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}$"))
    return page.url.rsplit("/", 1)[1]


def join_game(page: Page, code: str, nick: str) -> None:
    page.get_by_label(say(page, "home.nick"), exact=True).fill(nick)
    page.get_by_label(say(page, "home.join.code")).fill(code)
    page.get_by_role("button", name=say(page, "home.join.submit"), exact=True).click()
    page.wait_for_url(re.compile(rf"/g/{code}$"))


SNAPSHOT = """() => {
    const name = el =>
        (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ');
    const shown = el =>
        el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const usable = el => shown(el) && !el.disabled && el.getAttribute('aria-disabled') !== 'true';
    const toolbar = document.getElementById('hand');  // "Twoje karty"
    const inHand = el => toolbar !== null && toolbar.contains(el);
    return {
        buttons: [...document.querySelectorAll('button')]
            .filter(b => usable(b) && !inHand(b))
            .map(name),
        cards: toolbar ? [...toolbar.querySelectorAll('button')].filter(usable).map(name) : [],
    };
}"""


def hand(page: Page) -> Locator:
    return page.get_by_role("toolbar", name=say(page, "table.hand.label"))


def controls(page: Page) -> tuple[list[str], list[str]]:
    """The usable buttons outside the hand and the usable cards in it, in one look."""
    seen = page.evaluate(SNAPSHOT)
    return seen["buttons"], seen["cards"]


def click(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).first.click()


def click_card(page: Page, name: str) -> None:
    hand(page).get_by_role("button", name=name, exact=True).click()


def show_chat(page: Page) -> None:
    """On a narrow screen the chat is in a drawer: open it (a wide one always shows it)."""
    tab = page.locator("#tab-chat")
    heading = page.get_by_role("heading", name=say(page, "table.chat.title"))
    expect(tab.or_(heading).filter(visible=True).first).to_be_visible()  # the page is drawn
    if tab.is_visible() and tab.get_attribute("aria-expanded") != "true":
        tab.click()
    expect(heading).to_be_visible()


def show_table(page: Page) -> None:
    """Close the side drawer, if open, to see the table again."""
    close = page.get_by_role("button", name=say(page, "table.drawer.close"))
    if close.is_visible():
        close.click()


def lowest_contract(buttons: list[str], lang: str = catalogue.DEFAULT) -> str:
    """The first "Graj za N" button (the contract buttons go up from the bid), or ""."""
    verb = catalogue.text("table.move.declare", lang)
    prefix = catalogue.text("table.move.value", lang, verb=verb, value="")
    return next((name for name in buttons if name.startswith(prefix)), "")


def visible(page: Page, name: str) -> bool:
    return name in controls(page)[0]


RANK_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}


def points(card_name: str, lang: str = catalogue.DEFAULT) -> int:
    """A card's points by its name (its rank's name comes first in every language)."""
    ranks = {catalogue.text(f"card.rank.{r}", lang): p for r, p in RANK_POINTS.items()}
    return ranks[card_name.split()[0]]


def is_meld(card_name: str, lang: str = catalogue.DEFAULT) -> bool:
    """A card that melds when led: its name says "meldunek" in the language."""
    marker = catalogue.text("card.meld", lang, card="", value="").strip(" ,")
    return marker in card_name


def take_turn(page: Page) -> bool:
    """Make one move if it is this page's turn; False when there is nothing to do.

    Like a cautious player: pass, take the first musik, give away or lay down the
    weakest cards, declare the least, lead a marriage when holding one.
    """
    return act(page, *controls(page))


def act(page: Page, buttons: list[str], cards: list[str]) -> bool:
    """``take_turn`` on the controls seen in one look (``controls``): a test that looked
    at a phase moves in that phase, not in one that came after its look."""
    lang = lang_of(page)
    first_musik = say(page, "table.musik.nth", ordinal=say(page, "table.ordinal.first"))
    for name in (say(page, "table.move.pass"), first_musik, lowest_contract(buttons, lang)):
        if name in buttons:
            click(page, name)
            return True
    for confirm in (say(page, "table.move.give"), say(page, "table.move.discard")):
        if confirm in buttons:
            plain = [c for c in cards if not is_meld(c, lang)] or cards
            for card in sorted(plain, key=lambda c: points(c, lang))[:2]:
                click_card(page, card)
            click(page, confirm)
            return True
    if cards:
        melds = [c for c in cards if is_meld(c, lang)]
        click_card(page, melds[0] if melds else cards[0])
        return True
    return False


class SocketSeat:
    """A seat the test plays over the game's WebSocket (``harness.simple_move``): a player
    whose page no test looks at needs no browser of its own."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.moved_at: int | None = None  # the state version it last moved in

    def take_turn(self) -> bool:
        """Move once if the newest state offers this seat a move it has not answered."""
        seen = len(self.client.messages)
        self.client.drain(0.002)
        if any(m["type"] == "error" for m in self.client.messages[seen:]):
            self.moved_at = None  # refused: the next state decides again
        state = self.client.state
        view = state.get("view")
        if not view or not view["legal"] or self.moved_at == state["v"]:
            return False
        self.moved_at = state["v"]
        self.client.move(simple_move(view))
        return True

    def close(self) -> None:
        self.client.close()


def socket_seats(server: Endpoint, code: str, nicks: Sequence[str]) -> list[SocketSeat]:
    """Join ``code`` over HTTP as each of ``nicks``, in turn, and hold each seat's socket."""
    return [SocketSeat(server.client(code, server.join(code, nick)["token"])) for nick in nicks]


Seat = Page | SocketSeat


def turn(seat: Seat) -> bool:
    return take_turn(seat) if isinstance(seat, Page) else seat.take_turn()


def idle(seats: Sequence[Seat], ms: float) -> None:
    """Let the pages draw what came: a page's own wait when there is a page."""
    page = next((seat for seat in seats if isinstance(seat, Page)), None)
    if page is None:
        time.sleep(ms / 1000)
    else:
        page.wait_for_timeout(ms)


def play_until(seats: Sequence[Seat], done: Callable[[], bool], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for seat in seats:
            if done():
                return
            moved = turn(seat) or moved
        if not moved:
            idle(seats, 50)


def make_moves(seats: Sequence[Seat], count: int, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    made = 0
    while made < count:
        assert time.monotonic() < deadline, "no moves to make"
        for seat in seats:
            made += turn(seat)
        idle(seats, 50)


def card_names(page: Page) -> list[str]:
    # Read at once: the hand may redraw with a card fewer between two reads of one each.
    names: list[str] = (
        hand(page)
        .get_by_role("button")
        .evaluate_all("els => els.map(e => e.getAttribute('aria-label') || e.innerText)")
    )
    return sorted(names)


def summary_shown(page: Page) -> Callable[[], bool]:
    heading = page.get_by_role("heading", name=say(page, "table.summary.title"))
    return lambda: heading.count() > 0 and heading.first.is_visible()


POLISH_LETTERS = re.compile("[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")
# Polish words that are no English word, for Polish written without its own letters.
POLISH_WORDS = re.compile(r"\b(?:nie|jest|oraz|albo|lub|tej|przez|tylko|gdy|czy|dla|kopii)\b", re.I)
NOT_WORDS = re.compile(r"⟦|\{\w+\}")  # a key the page lacks (words.js), a placeholder left
# Every line of visible text, and every label, title, placeholder and alt the page holds.
SEEN = """() => {
  const lines = document.body.innerText.split("\\n");
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = node.getAttribute(name);
      if (value) lines.push(value);
    }
  lines.push(document.title);
  return lines.map((line) => line.trim()).filter(Boolean);
}"""


def polish_left(page: Page, lang: str) -> list[str]:
    """The lines of the page that are Polish: a Polish letter outside the site's name (the
    brand, as the language spells it), a Polish word, or a Polish catalogue text the
    language words differently; and those with a key or a placeholder instead of words. For a Polish
    page, only the latter."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    lines: list[str] = page.evaluate(SEEN)
    if lang == catalogue.DEFAULT:
        return [line for line in lines if NOT_WORDS.search(line)]
    words = catalogue.words(lang)
    polish = {
        text
        for key, text in catalogue.words("pl").items()
        if words.get(key, text) != text and text not in words.values()
    }
    brand = words["page.brand"]
    return [
        line
        for line in lines
        if POLISH_LETTERS.search(line.replace(brand, ""))
        or (lang != "pl" and POLISH_WORDS.search(line))
        or line in polish
        or NOT_WORDS.search(line)
    ]


def expect_heading(page: Page, name: str) -> None:
    expect(page.get_by_role("heading", name=name)).to_be_visible()


class _Text(HTMLParser):
    """The text nodes of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []

    def handle_data(self, data: str) -> None:
        self.nodes.append(data)


def _pieces(texts: Iterable[str]) -> set[str]:
    """The texts with each run of white space (a line break, a no-break space) one space."""
    return {" ".join(text.split()) for text in texts} - {""}


@cache
def catalogue_pieces(lang: str, document: str | None = None) -> frozenset[str]:
    """What a page in ``lang`` may say, in pieces: every catalogue text's
    literal parts (split at its ``{placeholder}``s; every plural form is a text of its
    own) and, on a document's page, the text nodes of that document in ``lang``."""
    parser = _Text()
    if document is not None:
        parser.feed(catalogue.document(document, lang))
    literals = (
        literal
        for template in catalogue.words(lang).values()
        for literal, _, _, _ in string.Formatter().parse(template)
    )
    return frozenset(_pieces([*literals, *parser.nodes]))


LETTER = r"[^\W\d_]"


@cache
def _said(piece: str) -> re.Pattern[str]:
    """``piece`` wherever it stands in a line as whole words (where it starts or ends with
    a letter, no letter stands beside that: "Off" is not taken out of "Offside"), in any
    case (a style may capitalise)."""
    body = re.escape(piece)
    before = f"(?<!{LETTER})" if re.match(LETTER, piece[0]) else ""
    after = f"(?!{LETTER})" if re.match(LETTER, piece[-1]) else ""
    return re.compile(before + body + after, re.IGNORECASE)


def unsaid(line: str, pieces: Sequence[str]) -> str:
    """What is left of ``line`` (its white space single, as ``_pieces``) when each of
    ``pieces``, longest first, is taken out of it (a long text is taken whole before a
    short one can split it)."""
    for piece in pieces:
        if piece.casefold() not in line.casefold():
            continue
        line = _said(piece).sub("\x00", line)
    return line


# The words the browser's Intl writes in a date or a time of the given locales (months,
# "PM", "at"), as the pages format them (toLocaleString, toLocaleTimeString): the
# browser's words in the page's language, not the site's.
INTL_WORDS = """(locales) => {
  const words = new Set();
  const styles = [
    { dateStyle: "long", timeStyle: "short" },
    { dateStyle: "medium", timeStyle: "short" },
    { hour: "2-digit", minute: "2-digit" },
  ];
  for (const locale of locales)
    for (const style of styles)
      for (let month = 0; month < 12; month++)
        for (const hour of [1, 13])
          for (const part of new Intl.DateTimeFormat(locale, style).formatToParts(
            new Date(2024, month, 1 + month, hour),
          ))
            if (/\\p{L}/u.test(part.value)) words.add(part.value);
  return [...words];
}"""
URL = re.compile(r"\bhttps?://\S+")  # an address the page shows (the game's link): no words


def outside_catalogue(page: Page, lang: str, also: Iterable[str] = ()) -> list[str]:
    """The page's visible lines (``SEEN``) that say something the catalogue of ``lang``
    does not: a line with a letter left once every catalogue text of the language (its
    literal parts, the values filled in its placeholders being whatever they are), the
    page's document (/zasady, /regulamin), the game's code in the page's URL, the words
    of a date or time in the language (``INTL_WORDS``) and ``also`` (what the test itself
    wrote: nicks, a game's name, chat lines) are taken out of it. Numbers, addresses, card
    suits and punctuation are no words. Each is reported with what was left of it,
    ``"line  ⟵  left"``."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    path = urlsplit(page.url).path
    locales = [lang, catalogue.text("table.chat.locale", lang)]
    given = _pieces([*also, *page.evaluate(INTL_WORDS, locales)])
    code = re.fullmatch(r"/g/([A-Z0-9]{6})(?:/przebieg)?", path)
    if code:
        given.add(code[1])
    said = catalogue_pieces(lang, DOCUMENT_PAGES.get(path))
    pieces = sorted({*said, *given}, key=len, reverse=True)
    lines: list[str] = page.evaluate(SEEN)
    found = []
    for line in lines:
        # A table row is one line, its cells apart by tabs: each cell is a text of its own.
        cells = URL.sub("\x00", line).split("\t")
        left = " ".join(unsaid(" ".join(cell.split()), pieces) for cell in cells)
        if re.search(LETTER, left):
            words = " ".join(re.sub(r"[\W\d_]+", " ", left).split())
            found.append(f"{line}  ⟵  {words}")
    return found
