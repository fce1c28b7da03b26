"""The table's sounds: off by default and not downloaded until turned on in the "Aa"
dialog; then each file is fetched on its first play, and the choice is remembered.
The committed files are the generator's (tools/make_sounds.py), small and short."""

from __future__ import annotations

import importlib.util
import io
import re
import time
import wave
from pathlib import Path
from types import ModuleType

from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from tests.server.harness import live_server
from tysiac import catalogue
from tysiac.web import STATIC

from .test_accessibility import violations

GENERATOR = Path(__file__).resolve().parents[2] / "tools" / "make_sounds.py"
NAMES = ("turn", "card", "trick", "warning")
SOUNDS = "/static/sounds/"

# Every buffer the page starts playing, by its length: proof that a sound went all the
# way from fetch through decodeAudioData to the speakers.
COUNT_STARTS = """
window.__started = [];
const start = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (...args) {
  window.__started.push(Math.round(this.buffer.duration * 1000));
  return start.apply(this, args);
};
"""
# A browser that refuses to play: the context never runs and resume() is refused.
REFUSE = """
Object.defineProperty(AudioContext.prototype, "state", { get: () => "suspended" });
AudioContext.prototype.resume = () => Promise.reject(new DOMException("no", "NotAllowedError"));
"""


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_sounds", GENERATOR)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_sounds_are_the_generators_small_and_short() -> None:
    make = generator()
    assert tuple(make.SOUNDS) == NAMES
    for name in NAMES:
        committed = (STATIC / "sounds" / f"{name}.wav").read_bytes()
        assert committed == make.render(name), f"{name}.wav: run python tools/make_sounds.py"
        assert len(committed) < 16 * 1024, name
        with wave.open(io.BytesIO(committed)) as sound:
            assert sound.getnchannels() == 1 and sound.getsampwidth() in (1, 2)
            assert sound.getframerate() <= 22050
            assert sound.getnframes() / sound.getframerate() <= 0.4, name
    assert make.main(["--check"]) == 0
    assert "CC0" in (STATIC / "sounds" / "LICENSE").read_text(encoding="utf-8")
    for lang in catalogue.AVAILABLE:  # the terms name the licence in every language
        assert "CC0" in catalogue.document("terms", lang)


def sound_requests(context: BrowserContext) -> list[str]:
    """Paths of /static/sounds/ requests from the context's pages and service worker."""
    seen: list[str] = []

    def note(request: Request) -> None:
        path = "/" + request.url.split("/", 3)[3]
        if path.startswith(SOUNDS):
            seen.append(path.removeprefix(SOUNDS))

    context.on("request", note)
    return seen


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def play(page: Page, name: str) -> None:
    page.evaluate("async (name) => (await import('/static/js/sound.js')).play(name)", name)


def started(page: Page) -> list[int]:
    found: list[int] = page.evaluate("() => window.__started")
    return found


def open_dialog(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^Aa")).click()
    expect(page.get_by_role("dialog", name="Wygląd i dźwięki")).to_be_visible()


def test_no_sound_until_turned_on_then_each_on_its_first_play(
    browser: Browser, tmp_path: Path
) -> None:
    with live_server(tmp_path) as server:
        code, _ = server.full_table(3)
        context = browser.new_context(locale="pl-PL")
        context.add_init_script(COUNT_STARTS)
        requested = sound_requests(context)
        page = context.new_page()
        errors = errors_of(page)
        page.goto(f"{server.base}/g/{code}")
        page.wait_for_load_state("networkidle")
        # The service worker has installed its precache: no sound in it either.
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        play(page, "turn")  # off: nothing
        page.wait_for_timeout(300)  # time enough for a request that should not come
        assert page.evaluate("async () => (await import('/static/js/sound.js')).soundOn()") is False
        assert requested == []
        assert page.evaluate("() => localStorage.getItem('sound')") is None

        open_dialog(page)
        group = page.get_by_role("group", name="Dźwięki")
        expect(group.get_by_role("radio", name="Wyłączone")).to_be_checked()
        with page.expect_response(lambda r: r.url.endswith(f"{SOUNDS}turn.wav")) as sample:
            group.get_by_role("radio", name="Włączone").check()
        assert sample.value.ok
        assert page.evaluate("() => localStorage.getItem('sound')") == "on"
        page.wait_for_function("() => window.__started.length === 1")  # the sample, heard
        assert set(requested) == {"turn.wav"}  # only the one played, no other
        page.keyboard.press("Escape")

        with page.expect_response(lambda r: r.url.endswith(f"{SOUNDS}card.wav")):
            play(page, "card")
        page.wait_for_function("() => window.__started.length === 2")
        play(page, "card")  # decoded once, played again without a download
        page.wait_for_function("() => window.__started.length === 3")
        assert started(page)[1:] == [110, 110]
        assert set(requested) == {"card.wav", "turn.wav"}  # the page's and its worker's
        # Fetched, the files are kept by the service worker (never precached).
        cached = "(path) => caches.match(path).then((hit) => Boolean(hit))"
        deadline = time.monotonic() + 10
        while not page.evaluate(cached, f"{SOUNDS}card.wav"):  # the worker stores it after
            assert time.monotonic() < deadline, "card.wav was not cached"
            time.sleep(0.05)
        assert page.evaluate(cached, f"{SOUNDS}trick.wav") is False

        page.reload()
        page.wait_for_load_state("networkidle")
        assert page.evaluate("async () => (await import('/static/js/sound.js')).soundOn()")
        open_dialog(page)
        sound = page.get_by_role("group", name="Dźwięki")
        expect(sound.get_by_role("radio", name="Włączone")).to_be_checked()
        sound.get_by_role("radio", name="Wyłączone").check()
        assert page.evaluate("() => localStorage.getItem('sound')") == "off"
        before = len(requested)
        play(page, "trick")
        page.wait_for_timeout(300)
        assert len(requested) == before and "trick.wav" not in requested
        assert started(page) == []
        assert errors == []
        context.close()


def test_the_files_decode_in_the_browser(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        page = browser.new_page()
        page.goto(server.base + "/zasady")
        lengths = page.evaluate(
            """async (names) => {
                const ctx = new OfflineAudioContext(1, 1, 16000);
                const out = {};
                for (const name of names) {
                    const data = await (await fetch(`/static/sounds/${name}.wav`)).arrayBuffer();
                    const buffer = await ctx.decodeAudioData(data);
                    out[name] = [buffer.numberOfChannels, buffer.duration];
                }
                return out;
            }""",
            list(NAMES),
        )
        page.close()
    for name, (channels, seconds) in lengths.items():
        assert channels == 1 and 0.05 < seconds <= 0.4, name


def test_a_refused_sound_is_silent(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        context = browser.new_context()
        context.add_init_script(COUNT_STARTS + REFUSE)
        page = context.new_page()
        errors = errors_of(page)
        page.goto(server.base + "/")
        page.evaluate("() => localStorage.setItem('sound', 'on')")
        with page.expect_response(lambda r: r.url.endswith(f"{SOUNDS}warning.wav")):
            play(page, "warning")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(200)
        assert started(page) == []
        # No Web Audio at all: nothing, and no error either.
        page.reload()
        page.evaluate("() => { window.AudioContext = window.webkitAudioContext = undefined; }")
        play(page, "turn")
        page.wait_for_timeout(200)
        assert errors == []
        context.close()


def test_the_dialog_with_its_sound_choice_passes_axe(browser: Browser, tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        found: dict[str, list[str]] = {}
        for scheme in ("light", "dark"):
            context = browser.new_context(color_scheme=scheme, locale="pl-PL")
            page = context.new_page()
            page.goto(server.base + "/")
            open_dialog(page)
            radios = page.get_by_role("group", name="Dźwięki").get_by_role("radio")
            expect(radios).to_have_count(2)
            for radio in radios.all():
                assert radio.evaluate("(el) => el.labels[0].textContent.trim()") in (
                    "Wyłączone",
                    "Włączone",
                )
            found[scheme] = violations(page, colours_only=scheme == "dark")
            context.close()
    assert found == {"light": [], "dark": []}
