"""Playing through the page alone: what a person sees and presses, by role and name.

The names are the catalogue's in the page's language: a page opened here with a locale
(``open_player``, ``seat_page``) is remembered with its language, and ``say`` words a key
in it; any other page is taken to be Polish, the browser's language in these tests.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.server.harness import Client, Endpoint, simple_move
from tysiac import catalogue

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
