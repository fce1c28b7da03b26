"""The contact page in Chromium: typed by keyboard, encrypted in the page, relayed by the
server to a real SMTP server, decrypted by GnuPG to exactly what was typed. Sent from an
English and a Ukrainian page too: the form's words and its answers in the page's language."""

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
from tysiac import catalogue

from .test_accessibility import SCHEMES, violations
from .ui import DESKTOP, LOCALES, PHONE, new_page, outside_catalogue, polish_left, say

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
    browser: Browser, base: str, viewport: dict[str, int] = DESKTOP, lang: str = "pl"
) -> tuple[Page, list[str]]:
    """The page, and the errors its console and scripts report (CSP violations among them)."""
    context = browser.new_context(viewport=viewport, locale=LOCALES[lang])  # type: ignore[arg-type]
    page = new_page(context, LOCALES[lang])
    problems: list[str] = []
    page.on("console", lambda m: _console(problems, m))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(base + "/kontakt")
    return page, problems


def operators(keys: GnuPG) -> tuple[str, ...]:
    """What the page says of the operator's own (not words): the address, the key's file
    name and its fingerprint, in groups of four."""
    fingerprint = keys.fingerprint(OPERATOR)
    grouped = " ".join(fingerprint[i : i + 4] for i in range(0, 40, 4))
    return OPERATOR, "klucz.asc", grouped


def _console(problems: list[str], message: ConsoleMessage) -> None:
    if message.type == "error":
        problems.append(message.text)


def type_by_keyboard(page: Page, message: str, nick: str, email: str) -> None:
    """Into the message, Tab to the nick, Tab to the e-mail, Tab to the button, Enter."""
    page.get_by_label(say(page, "contact.message")).focus()
    page.keyboard.type(message)
    page.keyboard.press("Tab")
    page.keyboard.type(nick)
    page.keyboard.press("Tab")
    page.keyboard.type(email)
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name=say(page, "contact.send"))).to_be_focused()
    page.keyboard.press("Enter")


def expected_plaintext(message: str, nick: str, email: str, lang: str = "pl") -> bytes:
    """The mail as the page composes it: the nick's and e-mail's lines in its language."""
    none = catalogue.text("contact.mail.none", lang)
    text = (
        "Content-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: 8bit\n\n"
        f"{catalogue.text('contact.mail.nick', lang, nick=nick or none)}\n"
        f"{catalogue.text('contact.mail.email', lang, email=email or none)}\n\n{message}\n"
    )
    return text.replace("\n", "\r\n").encode()


def test_typed_encrypted_relayed_and_decrypted_to_exactly_what_was_typed(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink, screenshots: Path
) -> None:
    settings = contact_settings(keys, sink.port, contact_per_day=1)
    with live_server(tmp_path, **settings) as server:  # from an English page
        page, problems = open_contact(browser, server.base, lang="en")
        expect(page.locator("#fingerprint")).to_have_text(operators(keys)[2])
        expect(page.get_by_role("link", name="klucz.asc")).to_have_attribute("href", "/klucz.asc")
        type_by_keyboard(page, MESSAGE, NICK, EMAIL)
        sent = f"{say(page, 'contact.sent')} {say(page, 'contact.sent.reply')}"
        expect(page.get_by_role("status")).to_have_text(sent, timeout=20000)
        assert sink.arrived.wait(10)
        expect(page.get_by_label(say(page, "contact.message"))).to_have_value("")
        assert polish_left(page, "en") == []
        assert outside_catalogue(page, "en", also=operators(keys)) == []
        page.screenshot(path=screenshots / "contact-sent-1280-en.png", full_page=True)
        assert problems == []  # no CSP violation, no script error
        # The limit (1 a day here): a clear refusal, and the text stays in the form.
        type_by_keyboard(page, "Second message", "", "")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text(say(page, "error.contact_limit", limit=1), timeout=20000)
        expect(alert).to_contain_text(say(page, "contact.kept"))
        expect(page.get_by_label(say(page, "contact.message"))).to_have_value("Second message")
        page.context.close()
    assert len(sink.received) == 1
    armored = encrypted_part(sink.received[0].message)
    assert "Zażółć" not in sink.received[0].message.as_string()
    assert keys.decrypt(armored) == expected_plaintext(MESSAGE, NICK, EMAIL, "en")


def test_nick_and_email_are_optional(
    browser: Browser, tmp_path: Path, keys: GnuPG, sink: MailSink
) -> None:
    with live_server(tmp_path, **contact_settings(keys, sink.port)) as server:  # in Ukrainian
        page, _ = open_contact(browser, server.base, PHONE, "uk")
        send = page.get_by_role("button", name=say(page, "contact.send"))
        message = page.get_by_label(say(page, "contact.message"))
        email = page.get_by_label(say(page, "contact.email"))
        send.click()
        expect(message).to_have_attribute("aria-invalid", "true")
        expect(page.get_by_text(say(page, "contact.message.empty"))).to_be_visible()
        expect(page.get_by_role("alert")).to_contain_text(say(page, "contact.invalid"))
        expect(message).to_be_focused()
        message.fill("Лише питання.")
        email.fill("це не адреса")
        send.click()
        expect(email).to_have_attribute("aria-invalid", "true")
        expect(page.get_by_text(say(page, "contact.email.invalid"))).to_be_visible()
        email.fill("")
        send.click()
        sent = f"{say(page, 'contact.sent')} {say(page, 'contact.sent.reply')}"
        expect(page.get_by_role("status")).to_have_text(sent, timeout=20000)
        assert sink.arrived.wait(10)
        assert polish_left(page, "uk") == []
        assert outside_catalogue(page, "uk", also=operators(keys)) == []
        page.context.close()
    armored = encrypted_part(sink.received[0].message)
    assert keys.decrypt(armored) == expected_plaintext("Лише питання.", "", "", "uk")


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
    on the page showing the state (emulate_media), which only the style sheets read. In
    each language: Polish on a phone, English on a desktop, Ukrainian on a phone (in the
    light scheme only: the dark one's colours are Polish's on a phone)."""
    found: dict[str, list[str]] = {}

    def check(page: Page, state: str, width: int, lang: str) -> None:
        for scheme in SCHEMES if lang != "uk" else SCHEMES[:1]:
            page.emulate_media(color_scheme=scheme)
            found[f"{state}-{width}-{lang}-{scheme}"] = violations(page, scheme == "dark")

    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    with (
        live_server(tmp_path / "on", **contact_settings(keys, sink.port)) as on,
        live_server(tmp_path / "off") as off,
    ):
        for viewport, lang in ((PHONE, "pl"), (DESKTOP, "en"), (PHONE, "uk")):
            width = viewport["width"]
            context = browser.new_context(viewport=viewport, locale=LOCALES[lang])  # type: ignore[arg-type]
            page = new_page(context, LOCALES[lang])
            send = page.get_by_role("button", name=say(page, "contact.send"))
            email = page.get_by_label(say(page, "contact.email"))
            page.goto(on.base + "/kontakt")
            expect(page.locator("#fingerprint")).not_to_be_empty()
            check(page, "form", width, lang)
            send.click()
            email.fill("x")
            send.click()
            expect(page.get_by_role("alert")).not_to_be_empty()
            check(page, "errors", width, lang)
            page.get_by_label(say(page, "contact.message")).fill("Test")
            email.fill("")
            send.click()
            expect(page.get_by_role("status")).to_contain_text(
                say(page, "contact.sent"), timeout=20000
            )
            check(page, "sent", width, lang)
            page.goto(off.base + "/kontakt")
            page.get_by_text(say(page, "contact.off")).wait_for()
            check(page, "off", width, lang)
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
