"""The table as a player sees it: every trick whole, one screen on a phone, a drawer."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import STRONG_DECK, FakeClock, live_server
from tysiac import catalogue

from .ui import (
    DESKTOP,
    LOCALES,
    PHONE,
    SMALL_PHONE,
    SNAPSHOT,
    SocketSeat,
    act,
    controls,
    make_moves,
    play_until,
    say,
    seat_page,
    take_turn,
    turn,
)

# Where the hand's cards and the controls of the move are, in one look at the page.
FIT = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    const table = document.getElementById('table');
    const shown = (el) => el.getClientRects().length > 0;
    const turn = document.getElementById('turn').textContent;
    return {
        turn,
        scrollY: window.scrollY,
        width: window.innerWidth,
        height: window.innerHeight,
        cards: [...document.querySelectorAll('#hand [data-card]')].filter(shown).map(box),
        moves: [...document.querySelectorAll('#moves button')].filter(shown).map(box),
        table: shown(table) ? box(table) : null,
        summary: [...document.querySelectorAll('#summary table, #summary .scroll-x')]
            .filter(shown)
            .map((el) => [...box(el), el.scrollWidth, el.clientWidth]),
    };
}"""

# The look and the controls at one moment: the move made is the one of the phase looked
# at (read apart, a state that came between had the page move in a phase never looked at).
LOOK = f"() => ({{ look: ({FIT})(), controls: ({SNAPSHOT})() }})"

PHASES = ("bidding", "musik", "give", "discard", "declare", "play")


def inside(rect: list[float], width: int, height: int) -> bool:
    left, top, right, bottom = rect
    return left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5


def phase_of(turn: str, lang: str = catalogue.DEFAULT) -> str | None:
    """The phase of the page's own move by its status line ("Twój ruch: licytuj…"), or None."""
    yours = catalogue.text("turn.yours", lang, move="{").split("{")[0]
    if not turn.startswith(yours):
        return None
    words = catalogue.words(lang)
    return next((p for p in PHASES if words[f"turn.move.{p}"].split("{")[0] in turn), None)


# In English and Ukrainian too: their longer words must fit the phone's one screen.
CASES = [
    (SMALL_PHONE, "light", 3, "pl"),
    (SMALL_PHONE, "dark", 2, "uk"),
    (SMALL_PHONE, "light", 4, "en"),
    (PHONE, "dark", 3, "uk"),
    (PHONE, "light", 2, "en"),
    (DESKTOP, "light", 4, "pl"),
    (DESKTOP, "dark", 3, "pl"),
]


@pytest.mark.parametrize(
    ("viewport", "scheme", "players", "lang"),
    CASES,
    ids=[f"{v['width']}x{v['height']}-{s}-{n}p-{lang}" for v, s, n, lang in CASES],
)
def test_every_phase_fits_one_screen(
    browser: Browser,
    tmp_path: Path,
    screenshots: Path,
    viewport: dict[str, int],
    scheme: str,
    players: int,
    lang: str,
) -> None:
    """The table, the hand and the controls of the move, inside the viewport, unscrolled.

    Every phase shows on two pages: the first bidder's (the bidding, as it passes) and the
    mus player's, who declares the 100 nobody bid over (the musik, the gifts or the
    discard, the contract); both play. The third player plays over its socket, and the
    dealer of four, sitting out, holds no connection: its seat shows all three of its
    chips (dealer, sitting out, offline), which must fit as well."""
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(players)
        first = server.client(code, tokens[0])
        active = first.view["hand"]["active"]  # the dealer of four sits out
        first.close()
        watched = active[:2]  # the mus player and the first bidder
        others = [SocketSeat(server.client(code, tokens[seat])) for seat in active[2:]]
        pages = [
            seat_page(browser, server.base, code, s, tokens[s], viewport, scheme, LOCALES[lang])
            for s in watched
        ]
        tag = f"{viewport['width']}x{viewport['height']}-{scheme}-{players}p-{lang}"
        seen: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + 120
        summary: dict[str, Any] | None = None
        while summary is None:
            assert time.monotonic() < deadline, f"the hand did not end; phases seen: {sorted(seen)}"
            for seat, page in enumerate(pages):
                both = page.evaluate(LOOK)
                look = both["look"]
                if look["summary"]:
                    summary = look
                    page.screenshot(path=screenshots / f"phase-{tag}-summary.png")
                    break
                phase = phase_of(look["turn"], lang)
                if phase is None or not (look["cards"] or look["moves"]):
                    continue
                if phase not in seen:
                    seen[phase] = look
                    page.screenshot(path=screenshots / f"phase-{tag}-{phase}.png")
                    width, height = look["width"], look["height"]
                    assert look["scrollY"] == 0, (phase, look["scrollY"])
                    assert look["table"] is not None and inside(look["table"], width, height)
                    outside = [
                        r for r in look["cards"] + look["moves"] if not inside(r, width, height)
                    ]
                    assert outside == [], (phase, seat, outside, height)
                act(page, both["controls"]["buttons"], both["controls"]["cards"])
            for other in others:
                other.take_turn()
            pages[0].wait_for_timeout(40)
        steps = {"musik", "discard"} if players == 2 else {"give"}
        expected = {"bidding", "declare", "play"} | steps
        assert expected <= set(seen), sorted(seen)
        for left, _top, right, _bottom, scroll_width, client_width in summary["summary"]:
            assert left >= 0 and right <= summary["width"] + 0.5  # every column on screen
            assert scroll_width <= client_width  # and nothing to scroll to
        for page in pages:
            page.context.close()
        for other in others:
            other.close()


TRICK_CARDS = "() => document.querySelectorAll('#center .trick-cards .played').length"


def test_a_finished_trick_is_seen_whole_by_everyone(browser: Browser, tmp_path: Path) -> None:
    # The server's clock stands still: "that moment" (the trick shown, 1.5 s by the server's
    # clock) lasts however slowly a busy machine opens the late page; each page's own 1.5 s
    # from the state it got are still real.
    with live_server(tmp_path, hand_pause_seconds=60, clock=FakeClock()) as server:
        code, tokens = server.full_table(3)
        pages = [seat_page(browser, server.base, code, s, t) for s, t in enumerate(tokens)]
        watcher = browser.new_context(locale="pl-PL", viewport=DESKTOP).new_page()  # type: ignore[arg-type]
        watcher.goto(f"{server.base}/g/{code}")
        everyone = [*pages, watcher]
        deadline = time.monotonic() + 90
        while True:  # to the first play of the hand
            assert time.monotonic() < deadline
            if any(phase_of(p.locator("#turn").inner_text()) == "play" for p in pages):
                break
            for page in pages:
                take_turn(page)
            pages[0].wait_for_timeout(50)
        for _ in range(3):  # one whole trick, a card a player
            while not any(take_turn(p) for p in pages):
                pages[0].wait_for_timeout(30)
            pages[0].wait_for_timeout(30)
        # The third card ends the trick: every page shows all three cards, the winner
        # marked, although the next lead may already be played.
        for page in everyone:
            expect(page.locator("#center .trick-taken .played")).to_have_count(3, timeout=1000)
            expect(page.locator("#center .played-win")).to_have_count(1)
            expect(page.locator("#center .trick-taken")).to_contain_text("Lewa dla:")
        late = browser.new_context(locale="pl-PL", viewport=DESKTOP).new_page()  # type: ignore[arg-type]
        late.goto(f"{server.base}/g/{code}")  # opened during that moment: sees it at once
        expect(late.locator("#center .trick-taken .played")).to_have_count(3, timeout=1200)
        # About 1.5 s later the trick is collected and the table shows the next one.
        for page in everyone:
            expect(page.locator("#center .trick-taken")).to_have_count(0, timeout=3000)
        for page in [*everyone, late]:
            page.context.close()


def test_the_drawer_holds_chat_scores_and_log_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    # In Ukrainian: the drawer's tabs, with their longer names, and the chat in it.
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3)
        page = seat_page(browser, server.base, code, 0, tokens[0], SMALL_PHONE, locale="uk-UA")
        cards = page.get_by_role("toolbar", name=say(page, "table.hand.label"))
        chat = page.get_by_role("log", name=say(page, "table.chat.title"))
        expect(cards).to_be_visible()
        expect(chat).to_be_hidden()
        writer = server.client(code, tokens[1])
        writer.send({"type": "chat", "text": "привіт усім"})
        chat_tab = page.locator("#tab-chat")
        expect(chat_tab).to_have_accessible_name(say(page, "table.drawer.unread", count=1))
        expect(page.locator("#unread")).to_have_text("1")
        chat_tab.click()
        expect(chat).to_contain_text("привіт усім")
        expect(chat_tab).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#unread")).to_be_hidden()
        assert page.evaluate("() => document.activeElement.id") == "drawer-close"
        page.get_by_role("textbox", name=say(page, "table.chat.message")).fill("хей")
        page.get_by_role("button", name=say(page, "table.chat.send")).click()
        expect(chat).to_contain_text("Gracz0: хей")
        page.keyboard.press("Escape")  # back to the table, where the focus came from
        expect(chat).to_be_hidden()
        assert page.evaluate("() => [window.scrollY, document.activeElement.id]") == [0, "tab-chat"]
        page.locator("#tab-scores").click()
        expect(page.get_by_role("heading", name=say(page, "table.scores.title"))).to_be_visible()
        expect(cards).to_be_hidden()
        page.get_by_role("button", name=say(page, "table.drawer.close")).click()
        expect(cards).to_be_visible()
        page.locator("#tab-log").click()
        dealt = say(page, "log.dealt", dealer="{").split("{")[0]
        expect(page.get_by_role("log", name=say(page, "table.log.title"))).to_contain_text(dealt)
        # Widened (a tablet turned) with no new state: the column stands beside the table.
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        expect(page.locator("#drawer-tabs")).to_be_hidden()
        expect(chat).to_be_visible()
        expect(cards).to_be_visible()
        page.set_viewport_size(SMALL_PHONE)  # type: ignore[arg-type]
        expect(page.locator("#tab-chat")).to_be_visible()
        expect(chat).to_be_hidden()
        writer.close()
        page.context.close()


def bidding_page(pages: list[Page]) -> Page:
    deadline = time.monotonic() + 10
    while True:
        found = [p for p in pages if phase_of(p.locator("#turn").inner_text()) == "bidding"]
        if found and controls(found[0])[0].count("Pas"):
            return found[0]
        assert time.monotonic() < deadline
        pages[0].wait_for_timeout(50)


def value_buttons(page: Page) -> list[str]:
    return [b for b in controls(page)[0] if b == "Pas" or b.startswith(("Licytuj ", "Więcej"))]


def test_bids_are_one_or_two_taps(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, deck=STRONG_DECK, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3)
        pages = [
            seat_page(browser, server.base, code, s, t, SMALL_PHONE) for s, t in enumerate(tokens)
        ]
        bidder = bidding_page(pages)  # holds a marriage (STRONG_DECK): may go past 120 (R13)
        buttons = value_buttons(bidder)
        assert buttons[:4] == ["Pas", "Licytuj 110", "Licytuj 120", "Licytuj 130"]
        assert len(buttons) == 5 and buttons[4].startswith("Więcej wartości, do ")
        top = buttons[4].rsplit(" ", 1)[1]
        more = bidder.get_by_role("button", name=re.compile("^Więcej wartości"))
        expect(more).to_have_attribute("aria-expanded", "false")
        more.click()  # the first tap
        less = bidder.get_by_role("button", name="Mniej wartości")
        expect(less).to_have_attribute("aria-expanded", "true")
        assert value_buttons(bidder)[-1] == f"Licytuj {top}"
        bidder.get_by_role("button", name="Licytuj 150", exact=True).click()  # the second
        for page in pages:  # the log is in the closed drawer; the announcer tells it
            expect(page.locator("#log")).to_contain_text("Gracz")
            expect(page.get_by_role("log", name="Zapowiedzi ruchów")).to_contain_text(
                "licytuje 150"
            )
        for page in pages:
            page.context.close()


DIMMED = """async () => {
    const { cardFace } = await import('/static/js/cards.js');
    const hand = document.createElement('div');
    hand.className = 'hand';
    hand.style.setProperty('--n', '1');
    for (const code of ['QH', 'TD', 'KC', 'AS']) {
        const button = document.createElement('button');
        button.className = 'card card-button dim';
        button.append(cardFace(code));
        hand.append(button);
    }
    document.body.append(hand);
    const opacity = (el) => {
        let o = 1;
        for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
        return o;
    };
    return [...hand.children].map((b) => ({
        rank: getComputedStyle(b.querySelector('.card-rank')).fill,
        face: getComputedStyle(b.querySelector('.card-bg')).fill,
        opacity: opacity(b.querySelector('.card-rank')),
        filter: getComputedStyle(b.querySelector('.card-svg')).filter,
    }));
}"""


def luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", css)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dimmed_cards_stay_readable(browser: Browser, tmp_path: Path, scheme: str) -> None:
    with live_server(tmp_path) as server:
        context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(f"{server.base}/g/{server.create()['code']}")
        for card in page.evaluate(DIMMED):
            assert card["opacity"] == 1 and "grayscale" not in card["filter"]
            darker, lighter = sorted([luminance(card["rank"]), luminance(card["face"])])
            assert (lighter + 0.05) / (darker + 0.05) >= 3, card  # at least 3:1
        context.close()


LONG = ["Przemysław_z_Wrocławia", "Małgorzata_Kowalczyk", "Grzegorz_Brzęczyszcz"]


def test_long_nicks_fit_the_score_sheet_and_the_summary(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        created = server.create(LONG[0][:20], 3)
        tokens = [created["token"]]
        tokens += [server.join(created["code"], nick[:20])["token"] for nick in LONG[1:]]
        code = created["code"]
        pages = [  # the longer words of English and Ukrainian beside the long nicks
            seat_page(browser, server.base, code, 0, tokens[0], DESKTOP, locale="en-US"),
            seat_page(browser, server.base, code, 1, tokens[1], SMALL_PHONE, locale="uk-UA"),
        ]
        third = SocketSeat(server.client(code, tokens[2]))  # only moves: no page
        box = pages[0].locator("#score-box")
        heads = box.locator("thead .nick")
        expect(heads).to_have_count(3)
        for head, nick in zip(heads.all(), LONG, strict=True):
            expect(head).to_have_text(nick[:20])  # whole, to a screen reader
            expect(head).to_have_attribute("title", nick[:20])  # and on hover
        assert box.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        deadline = time.monotonic() + 120
        while not pages[1].locator("#summary table").is_visible():
            assert time.monotonic() < deadline
            for seat in [*pages, third]:
                turn(seat)
            pages[0].wait_for_timeout(50)
        third.close()
        region = pages[1].locator("#summary .scroll-x")
        assert region.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        right = region.evaluate("(el) => el.getBoundingClientRect().right")
        assert right <= SMALL_PHONE["width"]
        pages[1].screenshot(path=screenshots / "summary-375-long-nicks.png")
        pages[0].screenshot(path=screenshots / "scores-1280-long-nicks.png")
        for page in pages:
            page.context.close()


def test_the_summary_opens_again_until_the_next_hand_ends(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, hand_pause_seconds=1) as server:
        code, tokens = server.full_table(3)
        page = seat_page(browser, server.base, code, 0, tokens[0], SMALL_PHONE)
        others = [SocketSeat(server.client(code, token)) for token in tokens[1:]]
        summary = page.get_by_role("heading", name="Podsumowanie rozdania")
        play_until([page, *others], summary.is_visible)
        again = page.get_by_role("button", name="Podsumowanie rozdania")
        expect(again).to_be_visible(timeout=5000)  # the next hand is dealt
        expect(summary).to_be_hidden()
        again.click()
        expect(page.get_by_role("heading", name="Podsumowanie rozdania 1")).to_be_visible()
        close = page.get_by_role("button", name="Zamknij podsumowanie")
        expect(close).to_have_attribute("aria-expanded", "true")
        close.click()
        expect(page.get_by_role("heading", name="Podsumowanie rozdania 1")).to_be_hidden()
        for seat in others:
            seat.close()
        page.context.close()


def test_after_a_surrender_the_end_ranks_everyone(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3)
        pages = [
            seat_page(browser, server.base, code, s, t, SMALL_PHONE) for s, t in enumerate(tokens)
        ]
        expect(pages[1].get_by_role("toolbar", name="Twoje karty")).to_be_visible()
        pages[1].get_by_role("button", name="Poddaj grę").click()
        pages[1].get_by_role("button", name="Tak, poddaję grę").click()
        for page in pages:
            expect(page.get_by_role("heading", name="Koniec gry")).to_be_visible()
            ranking = page.locator("#ranking li")
            expect(ranking).to_have_count(3)
            expect(ranking.first).to_contain_text("wygrywa")
            expect(page.locator("#ranking")).to_contain_text("Gracz1")
            expect(page.locator("#ranking")).to_contain_text("poddaje grę")
            expect(page.locator("#end-text")).to_contain_text("Gracz1 poddaje grę")
            expect(page.locator("#end-scores table")).to_be_visible()
            expect(page.get_by_role("button", name="Pas")).to_have_count(0)
            expect(page.get_by_role("toolbar", name="Twoje karty")).to_be_hidden()
            expect(page.get_by_role("region", name="Stół")).to_be_hidden()  # the end instead
        pages[0].screenshot(path=screenshots / "end-375-surrender.png", full_page=True)
        for page in pages:
            page.context.close()


LOG_LINES = "() => [...document.querySelectorAll('#log p')].map((p) => p.textContent)"


def test_the_move_log_is_the_same_after_a_reload_and_for_a_late_spectator(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path, hand_pause_seconds=60) as server:
        code, tokens = server.full_table(3)
        pages = [seat_page(browser, server.base, code, 0, tokens[0])]
        others = [SocketSeat(server.client(code, token)) for token in tokens[1:]]
        make_moves([*pages, *others], 12)  # bidding, the musik, the contract, the first tricks
        pages[0].wait_for_timeout(300)
        before = pages[0].evaluate(LOG_LINES)
        assert len(before) > 12 and any(line.startswith("Lewę bierze") for line in before)
        pages[0].reload()
        expect(pages[0].locator("#log p")).to_have_count(len(before))
        assert pages[0].evaluate(LOG_LINES) == before
        late = browser.new_context(locale="pl-PL", viewport=SMALL_PHONE).new_page()  # type: ignore[arg-type]
        late.goto(f"{server.base}/g/{code}")
        expect(late.locator("#log p")).to_have_count(len(before))
        assert late.evaluate(LOG_LINES) == before
        for seat in others:
            seat.close()
        for page in [*pages, late]:
            page.context.close()


ANIMATION = """() => {
    const probe = document.createElement('ol');
    probe.className = 'trick-cards';
    probe.innerHTML = '<li class="played arrive" data-pos="left"></li>';
    document.body.append(probe);
    return getComputedStyle(probe.firstElementChild).animationName;
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_travels_unless_motion_is_reduced(
    browser: Browser, tmp_path: Path, motion: str
) -> None:
    with live_server(tmp_path) as server:
        context = browser.new_context(reduced_motion=motion)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(f"{server.base}/g/{server.create()['code']}")
        assert page.evaluate(ANIMATION) == ("none" if motion == "reduce" else "from-left")
        context.close()
