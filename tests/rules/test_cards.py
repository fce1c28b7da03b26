import itertools

import pytest

from tysiac.rules.cards import (
    ABOVE,
    ALL_CARDS,
    DECK,
    MARRIAGE_VALUES,
    POINTS,
    NotationError,
    card_code,
    card_label,
    card_name,
    cards_of,
    codes,
    marriage_suits,
    parse_card,
    parse_cards,
    points_of,
)


def test_r1_deck_has_24_cards_worth_120_points() -> None:
    assert len(ALL_CARDS) == 24 == DECK.bit_count()
    assert sum(POINTS) == 120 == points_of(DECK)
    assert [POINTS[parse_card(r + "H")] for r in "ATKQJ9"] == [11, 10, 4, 3, 2, 0]


def test_r1_ten_beats_king_and_order_is_a_ten_king_queen_jack_nine() -> None:
    order = [parse_card(r + "S") for r in "ATKQJ9"]
    for stronger, weaker in itertools.pairwise(order):
        assert ABOVE[weaker] >> stronger & 1
        assert not ABOVE[stronger] >> weaker & 1
    assert not ABOVE[parse_card("AS")]
    assert not ABOVE[parse_card("9S")] >> parse_card("AH") & 1  # other suits never count


def test_r2_polish_names_and_labels() -> None:
    assert card_name(parse_card("QH")) == "dama kier"
    assert card_name(parse_card("TD")) == "dziesiątka karo"
    assert card_name(parse_card("JC")) == "walet trefl"
    assert card_name(parse_card("9S")) == "dziewiątka pik"
    assert card_name(parse_card("KS")) == "król pik"
    assert card_name(parse_card("AC")) == "as trefl"
    assert [card_label(parse_card(c)) for c in ("AH", "TD", "KC", "QS", "JH", "9D")] == [
        "A♥",
        "10♦",
        "K♣",
        "D♠",
        "W♥",
        "9♦",
    ]


def test_r3_codes_round_trip_and_bad_codes_are_refused() -> None:
    assert [card_code(c) for c in ALL_CARDS] == codes(DECK)
    assert all(parse_card(card_code(c)) == c for c in ALL_CARDS)
    assert card_code(parse_card("TH")) == "TH"
    for bad in ("10H", "th", "XH", "T", "", "AHX", "1S"):
        with pytest.raises(NotationError):
            parse_card(bad)
    with pytest.raises(NotationError):
        parse_cards("AS AS")
    assert cards_of(parse_cards("QS TH")) == (parse_card("QS"), parse_card("TH"))


def test_r4_marriage_values() -> None:
    assert MARRIAGE_VALUES == (40, 60, 80, 100)  # ♠ ♣ ♦ ♥
    assert marriage_suits(parse_cards("KH QH KS QD")) == (3,)
    assert marriage_suits(parse_cards("KS QS KC QC KD QD KH QH")) == (0, 1, 2, 3)
    assert marriage_suits(parse_cards("KH QS")) == ()
