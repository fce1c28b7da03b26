"""The contact page in Chromium: typed by keyboard, encrypted in the page, relayed by the
server to a real SMTP server, decrypted by GnuPG to exactly what was typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.server.contact_kit import (
    OPERATOR,
    GnuPG,
    MailSink,
    contact_settings,
    encrypted_part,
    free_port,
    gnupg,
    mail_sink,
)
from tests.server.harness import live_server

from .test_accessibility import SCHEMES, violations
from .ui import DESKTOP, PHONE

MESSAGE = "Dzień dobry!\nGra ABC123 się zawiesiła — co robić?\n\nPozdrawiam, Zażółć Gęślą"
NICK = "Jaźń"
EMAIL = "ala@example.com"


@pytest.fixture(scope="module")
def keys() -> Iterator[GnuPG]:
    with gnupg() as keyring:
        keyring.generate(OPERATOR)
        yield keyring


@pytest.fixture
def sink() -> Iterator[MailSink]:
    with mail_sink() as running:
        yield running


def open_contact(
    browser: Browser, base: str, viewport: dict[str, int] = DESKTOP
) -> tuple[Page, list[str]]:
    """The page, and the errors its console and scripts report (CSP violations among them)."""
    context = browser.new_context(viewport=viewport, locale="pl-PL")  # type: ignore[arg-type]
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: _console(problems, m))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(base + "/kontakt")
    return page, problems


def _console(problems: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        problems.append(message.text)


def type_by_keyboard(page: Page, message: str, nick: str, email: str) -> None:
    """Into the message, Tab to the nick, Tab to the e-mail, Tab to the button, Enter."""
    page.get_by_label("Wiadomość").focus()
    page.keyboard.type(message)
    page.keyboard.press("Tab")
    page.keyboard.type(nick)
    page.keyboard.press("Tab")
    page.keyboard.type(email)
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Zaszyfruj i wyślij")).to_be_focused()
    page.keyboard.press("Enter")


def expected_plaintext(message: str, nick: str, email: str) -> bytes:
    text = (
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit\n\n"
        f"Nick: {nick}\nE-mail: {email}\n\n{message}\n"
    )
    return text.replace("\n", "\r\n").encode()


def test_typed_encrypted_relayed_and_decrypted_to_exactly_what_was_typed(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink, screenshots: Path
) -> None:
    settings = contact_settings(keys, sink.port, contact_per_day=1)
    with live_server(tmp_path, **settings) as server:
        page, problems = open_contact(browser, server.base)
        fingerprint = keys.fingerprint(OPERATOR)
        grouped = " ".join(fingerprint[i : i + 4] for i in range(0, 40, 4))
        expect(page.locator("#fingerprint")).to_have_text(grouped)
        expect(page.get_by_role("link", name="klucz.asc")).to_have_attribute("href", "/klucz.asc")
        type_by_keyboard(page, MESSAGE, NICK, EMAIL)
        expect(page.get_by_role("status")).to_contain_text("Wiadomość wysłana", timeout=20000)
        assert sink.arrived.wait(10)
        expect(page.get_by_label("Wiadomość")).to_have_value("")
        page.screenshot(path=screenshots / "contact-sent-1280.png", full_page=True)
        assert problems == []  # no CSP violation, no script error
        # The limit (1 a day here): a clear refusal, and the text stays in the form.
        type_by_keyboard(page, "Druga wiadomość", "", "")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("wysłano już 1 wiadomości w ciągu doby", timeout=20000)
        expect(alert).to_contain_text("Twój tekst został w formularzu")
        expect(page.get_by_label("Wiadomość")).to_have_value("Druga wiadomość")
        page.context.close()
    assert len(sink.received) == 1
    armored = encrypted_part(sink.received[0].message)
    assert "Zażółć" not in sink.received[0].message.as_string()
    assert keys.decrypt(armored) == expected_plaintext(MESSAGE, NICK, EMAIL)


def test_nick_and_email_are_optional(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:
        page, _ = open_contact(browser, server.base, PHONE)
        send = page.get_by_role("button", name="Zaszyfruj i wyślij")
        send.click()
        expect(page.get_by_label("Wiadomość")).to_have_attribute("aria-invalid", "true")
        expect(page.get_by_text("Wpisz treść wiadomości.")).to_be_visible()
        expect(page.get_by_label("Wiadomość")).to_be_focused()
        page.get_by_label("Wiadomość").fill("Samo pytanie.")
        page.get_by_label("E-mail (opcjonalnie)").fill("to nie adres")
        send.click()
        expect(page.get_by_label("E-mail (opcjonalnie)")).to_have_attribute("aria-invalid", "true")
        page.get_by_label("E-mail (opcjonalnie)").fill("")
        send.click()
        expect(page.get_by_role("status")).to_contain_text("Wiadomość wysłana", timeout=20000)
        assert sink.arrived.wait(10)
        page.context.close()
    armored = encrypted_part(sink.received[0].message)
    assert keys.decrypt(armored) == expected_plaintext(
        "Samo pytanie.", "(nie podano)", "(nie podano)"
    )


def test_a_failed_relay_keeps_the_text_and_says_try_again(
    browser: Browser, tmp_path: Path, keys: GnuPG
) -> None:
    with live_server(tmp_path, **contact_settings(keys, free_port())) as server:
        page, _ = open_contact(browser, server.base)
        page.get_by_label("Wiadomość").fill(MESSAGE)
        page.get_by_label("Nick (opcjonalnie)").fill(NICK)
        page.get_by_role("button", name="Zaszyfruj i wyślij").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Spróbuj ponownie", timeout=20000)
        expect(alert).to_contain_text("Twój tekst został w formularzu")
        expect(page.get_by_label("Wiadomość")).to_have_value(MESSAGE)
        expect(page.get_by_label("Nick (opcjonalnie)")).to_have_value(NICK)
        expect(page.get_by_role("button", name="Zaszyfruj i wyślij")).to_be_enabled()
        page.context.close()


def test_not_configured_says_so_and_offers_no_form(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path, operator_email=OPERATOR) as server:
        page, problems = open_contact(browser, server.base)
        expect(page.get_by_text("Formularz kontaktowy nie jest skonfigurowany")).to_be_visible()
        expect(page.get_by_role("link", name=OPERATOR).first).to_have_attribute(
            "href", f"mailto:{OPERATOR}"
        )
        expect(page.get_by_label("Wiadomość")).to_be_hidden()
        expect(page.get_by_role("button", name="Zaszyfruj i wyślij")).to_be_hidden()
        assert problems == []
        page.context.close()


def test_no_axe_violations_on_the_contact_page(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    """Each state of the page, phone and desktop, light and dark: the scheme is switched
    on the page showing the state (emulate_media), which only the style sheets read."""
    found: dict[str, list[str]] = {}

    def check(page: Page, state: str, width: int) -> None:
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            found[f"{state}-{width}-{scheme}"] = violations(page)

    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    with (
        live_server(tmp_path / "on", **contact_settings(keys, sink.port)) as on,
        live_server(tmp_path / "off") as off,
    ):
        for viewport in (PHONE, DESKTOP):
            width = viewport["width"]
            context = browser.new_context(viewport=viewport, locale="pl-PL")  # type: ignore[arg-type]
            page = context.new_page()
            page.goto(on.base + "/kontakt")
            expect(page.locator("#fingerprint")).not_to_be_empty()
            check(page, "form", width)
            page.get_by_role("button", name="Zaszyfruj i wyślij").click()
            page.get_by_label("E-mail (opcjonalnie)").fill("x")
            page.get_by_role("button", name="Zaszyfruj i wyślij").click()
            expect(page.get_by_role("alert")).not_to_be_empty()
            check(page, "errors", width)
            page.get_by_label("Wiadomość").fill("Test")
            page.get_by_label("E-mail (opcjonalnie)").fill("")
            page.get_by_role("button", name="Zaszyfruj i wyślij").click()
            expect(page.get_by_role("status")).to_contain_text("wysłana", timeout=20000)
            check(page, "sent", width)
            page.goto(off.base + "/kontakt")
            page.get_by_text("nie jest skonfigurowany").wait_for()
            check(page, "off", width)
            context.close()
    assert {screen: v for screen, v in found.items() if v} == {}


def test_the_form_reflows_at_320_px_with_text_at_200_percent(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:
        context = browser.new_context(viewport={"width": 320, "height": 640}, bypass_csp=True)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(server.base + "/kontakt")
        expect(page.locator("#fingerprint")).not_to_be_empty()
        page.add_style_tag(content="html { font-size: 200% !important; }")
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        context.close()
