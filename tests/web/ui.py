"""Playing through the page alone: what a person sees and presses, by role and name."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.server.harness import Client, Endpoint, simple_move

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}


def open_player(browser: Browser, url: str, viewport: dict[str, int] = DESKTOP) -> Page:
    context: BrowserContext = browser.new_context(viewport=viewport, locale="pl-PL")  # type: ignore[arg-type]
    page = context.new_page()
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
    page = context.new_page()
    page.goto(f"{base}/zasady")
    entry = json.dumps({"seat": seat, "token": token, "nick": f"Gracz{seat}"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"tysiac-online:{code}", entry])
    page.goto(f"{base}/g/{code}")
    return page


def create_game(page: Page, nick: str, players: int, **options: Any) -> str:
    """Fill the home page form, create the game; returns the game code from the URL."""
    page.get_by_label("Nick", exact=True).fill(nick)
    page.get_by_label(f"{players} graczy").check()
    if options.get("public"):
        page.get_by_label("Gra publiczna").check()
    page.get_by_role("button", name="Załóż grę").click()
    page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}$"))
    return page.url.rsplit("/", 1)[1]


def join_game(page: Page, code: str, nick: str) -> None:
    page.get_by_label("Nick", exact=True).fill(nick)
    page.get_by_label("Kod gry").fill(code)
    page.get_by_role("button", name="Dołącz do gry", exact=True).click()
    page.wait_for_url(re.compile(rf"/g/{code}$"))


SNAPSHOT = """() => {
    const name = el =>
        (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ');
    const shown = el =>
        el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const usable = el => shown(el) && !el.disabled && el.getAttribute('aria-disabled') !== 'true';
    const toolbar = document.querySelector('[role=toolbar][aria-label="Twoje karty"]');
    const inHand = el => toolbar !== null && toolbar.contains(el);
    return {
        buttons: [...document.querySelectorAll('button')]
            .filter(b => usable(b) && !inHand(b))
            .map(name),
        cards: toolbar ? [...toolbar.querySelectorAll('button')].filter(usable).map(name) : [],
    };
}"""


def hand(page: Page) -> Locator:
    return page.get_by_role("toolbar", name="Twoje karty")


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
    heading = page.get_by_role("heading", name="Czat")
    expect(tab.or_(heading).filter(visible=True).first).to_be_visible()  # the page is drawn
    if tab.is_visible() and tab.get_attribute("aria-expanded") != "true":
        tab.click()
    expect(heading).to_be_visible()


def show_table(page: Page) -> None:
    """Close the side drawer, if open, to see the table again."""
    close = page.get_by_role("button", name="Wróć do stołu")
    if close.is_visible():
        close.click()


def lowest_contract(buttons: list[str]) -> str:
    """The first "Graj za N" button (the contract buttons go up from the bid), or ""."""
    return next((name for name in buttons if name.startswith("Graj za ")), "")


def visible(page: Page, name: str) -> bool:
    return name in controls(page)[0]


RANK_POINTS = {"dziewiątka": 0, "walet": 2, "dama": 3, "król": 4, "dziesiątka": 10, "as": 11}


def points(card_name: str) -> int:
    return RANK_POINTS[card_name.split()[0]]


def take_turn(page: Page) -> bool:
    """Make one move if it is this page's turn; False when there is nothing to do.

    Like a cautious player: pass, take the first musik, give away or lay down the
    weakest cards, declare the least, lead a marriage when holding one.
    """
    return act(page, *controls(page))


def act(page: Page, buttons: list[str], cards: list[str]) -> bool:
    """``take_turn`` on the controls seen in one look (``controls``): a test that looked
    at a phase moves in that phase, not in one that came after its look."""
    for name in ("Pas", "Pierwszy musik", lowest_contract(buttons)):
        if name in buttons:
            click(page, name)
            return True
    for confirm in ("Oddaj karty", "Odłóż karty"):
        if confirm in buttons:
            plain = [c for c in cards if "meldunek" not in c] or cards
            for card in sorted(plain, key=points)[:2]:
                click_card(page, card)
            click(page, confirm)
            return True
    if cards:
        melds = [c for c in cards if "meldunek" in c]
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
    heading = page.get_by_role("heading", name="Podsumowanie rozdania")
    return lambda: heading.count() > 0 and heading.first.is_visible()


def expect_heading(page: Page, name: str) -> None:
    expect(page.get_by_role("heading", name=name)).to_be_visible()
