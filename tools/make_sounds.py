"""The table's four sounds, synthesised: ``src/tysiac/web/static/sounds/*.wav``.

    python tools/make_sounds.py          write the files
    python tools/make_sounds.py --check  exit 1 if a committed file differs

Pure standard library (``math``, ``struct``, ``wave``) and deterministic: no clock, and
the noise comes from a fixed-seed xorshift generator, so the same script always writes
the same bytes (tests/web/test_sound.py compares them with the committed files). Mono,
16 kHz, 16-bit PCM, each under 0.4 s and 12 KB. Soft shapes, never a bare beep: every
sound starts from silence with a short raised-cosine attack, decays exponentially and
fades to exact silence, so nothing clicks.

Made in this project and dedicated to the public domain (CC0 1.0): see sounds/LICENSE.
"""

from __future__ import annotations

import argparse
import io
import math
import struct
import sys
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parents[1] / "src" / "tysiac" / "web" / "static" / "sounds"

Samples = list[float]
FADE = 0.02  # seconds of cosine fade to exact silence at the end of a note and of a file


def silence(seconds: float) -> Samples:
    return [0.0] * round(seconds * RATE)


def mix(into: Samples, sound: Samples, at: float, gain: float = 1.0) -> None:
    """Add ``sound`` into ``into`` from ``at`` seconds (``into`` is long enough)."""
    start = round(at * RATE)
    for i, value in enumerate(sound):
        into[start + i] += gain * value


def envelope(t: float, attack: float, decay: float) -> float:
    """A raised-cosine rise over ``attack`` seconds, then an exponential decay."""
    if t < attack:
        return 0.5 - 0.5 * math.cos(math.pi * t / attack)
    return math.exp(-(t - attack) / decay)


def tone(
    freq: float,
    seconds: float,
    partials: tuple[tuple[float, float, float], ...],
    attack: float,
    decay: float,
) -> Samples:
    """A note of ``partials`` (multiple of ``freq``, amplitude, decay factor): the upper
    partials die sooner (their decay is ``decay`` times the factor), as a struck bar's do.
    The note fades to silence over its last ``FADE`` seconds, so it never stops with a click."""
    out = []
    for n in range(round(seconds * RATE)):
        t = n / RATE
        value = sum(
            amp * envelope(t, attack, decay * factor) * math.sin(2 * math.pi * freq * mult * t)
            for mult, amp, factor in partials
        )
        out.append(value)
    return faded(out)


def faded(samples: Samples) -> Samples:
    """``samples`` with a cosine fade to exact silence over their last ``FADE`` seconds."""
    fade = round(FADE * RATE)
    out = samples[:]
    for left in range(min(fade, len(out))):
        out[-1 - left] *= 0.5 - 0.5 * math.cos(math.pi * left / fade)
    return out


def noise(seed: int) -> Iterator[float]:
    """Uniform white noise in [-1, 1] from xorshift32: the same on every machine."""
    state = seed
    while True:
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        yield state / 0x7FFFFFFF - 1.0


def band(
    source: Iterator[float], seconds: float, centre: Callable[[float], float], q: float
) -> Samples:
    """``source`` through a band-pass biquad (RBJ, 0 dB peak) whose centre may move."""
    out = []
    x1 = x2 = y1 = y2 = 0.0
    for n in range(round(seconds * RATE)):
        w = 2 * math.pi * centre(n / RATE) / RATE
        alpha = math.sin(w) / (2 * q)
        a0 = 1 + alpha
        b0, b2 = alpha / a0, -alpha / a0
        a1, a2 = -2 * math.cos(w) / a0, (1 - alpha) / a0
        x0 = next(source)
        y0 = b0 * x0 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x0, y1, y0
        out.append(y0)
    return out


def shaped(samples: Samples, shape: Callable[[float], float]) -> Samples:
    return [value * shape(n / RATE) for n, value in enumerate(samples)]


def tap(seed: int) -> Samples:
    """A card laid on the cloth: a short burst of mid noise over a low, falling thump."""
    seconds = 0.09
    rustle = shaped(
        band(noise(seed), seconds, lambda t: 2400.0, 0.9),
        lambda t: envelope(t, 0.002, 0.018),
    )
    thump = [
        envelope(n / RATE, 0.003, 0.025)
        * math.sin(2 * math.pi * (170 * n / RATE - 400 * (n / RATE) ** 2))
        for n in range(round(seconds * RATE))
    ]
    return [r + 0.35 * b for r, b in zip(rustle, thump, strict=True)]


def turn() -> Samples:
    """Your turn: two soft bell notes rising a fourth, G5 then C6."""
    bell = ((1.0, 1.0, 1.0), (2.0, 0.22, 0.5), (3.0, 0.07, 0.3), (4.16, 0.03, 0.2))
    out = silence(0.36)
    mix(out, tone(783.99, 0.25, bell, 0.006, 0.09), 0.0, 0.8)
    mix(out, tone(1046.50, 0.24, bell, 0.006, 0.11), 0.11)
    return out


def card() -> Samples:
    """A card played."""
    out = silence(0.11)
    mix(out, tap(0x2545F491), 0.0)
    return out


def trick() -> Samples:
    """A trick taken: the cards slide together (a rising swish), then land."""
    seconds = 0.2
    swish = shaped(
        band(noise(0x9E3779B9), seconds, lambda t: 900.0 + 14_000.0 * t, 1.2),
        lambda t: math.sin(math.pi * t / seconds) ** 2,
    )
    out = silence(0.27)
    mix(out, swish, 0.0, 0.9)
    mix(out, tap(0x6C078965), 0.17, 0.8)
    return out


def warning() -> Samples:
    """Ten seconds left: two soft, round pulses on A5 (a triangle's odd harmonics)."""
    soft = ((1.0, 1.0, 1.0), (3.0, 1 / 9, 0.6), (5.0, 1 / 25, 0.4))
    pulse = tone(880.0, 0.13, soft, 0.01, 0.07)
    out = silence(0.33)
    mix(out, pulse, 0.0)
    mix(out, pulse, 0.17)
    return out


# name: (maker, peak level of the file, 1.0 = full scale)
SOUNDS: dict[str, tuple[Callable[[], Samples], float]] = {
    "turn": (turn, 0.7),
    "card": (card, 0.55),
    "trick": (trick, 0.55),
    "warning": (warning, 0.6),
}


def finish(samples: Samples, peak: float) -> bytes:
    """Fade out, normalise to ``peak`` and write 16-bit little-endian PCM."""
    samples = faded(samples)
    top = max(abs(v) for v in samples)
    return struct.pack(f"<{len(samples)}h", *(round(32767 * peak * v / top) for v in samples))


def render(name: str) -> bytes:
    """The bytes of ``name``.wav."""
    make, peak = SOUNDS[name]
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(finish(make(), peak))
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    stale = []
    for name in SOUNDS:
        path = OUT / f"{name}.wav"
        data = render(name)
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(path.name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"{path.relative_to(OUT.parents[4])}: {len(data):,} bytes")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python tools/make_sounds.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
