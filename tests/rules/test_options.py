"""The options' ids and the create form's presets (rules/options.py, docs/rules.md
"Table options" and "Presets")."""

from __future__ import annotations

import pytest

from tysiac.rules.options import (
    CHOICES,
    DEFAULT,
    PRESETS,
    OptionsError,
    option_id,
    option_table,
    options_from_json,
    options_to_json,
    value_id,
)


def test_v1_v16_ids_are_the_keys_in_order_and_barrel_off_is_v16() -> None:
    assert [option_id(key) for key in CHOICES] == [f"V{n}" for n in range(1, 16)]
    assert value_id("barrel", "off") == "V16"
    assert value_id("barrel", "880") == value_id("barrel", "800") == "V10"
    assert value_id("golden_ace", True) == "V15"
    barrel = next(row for row in option_table() if row["key"] == "barrel")
    assert barrel["value_ids"] == {"off": "V16"}
    assert all(row["value_ids"] == {} for row in option_table() if row["key"] != "barrel")


@pytest.mark.parametrize("key", [key for key, chosen in PRESETS.items() if chosen is not None])
def test_every_preset_is_options_the_rules_accept(key: str) -> None:
    chosen = PRESETS[key]
    assert chosen is not None
    options = options_to_json(options_from_json(chosen))
    # A preset names only what it changes; everything else stays the standard rule.
    assert {k: v for k, v in options.items() if v != options_to_json(DEFAULT)[k]} == chosen


# The presets by the ids of what each sets (the issue: gracz.pl V2 "360", V6 off, V16;
# GameDesire V2 "melds", V11; mizerca V4, V5 "10_down"; east of Poland: step 5, bolts,
# 555, barrel 880, four aces, redeals, blind, Złoty As).
SETS = {
    "standard": [],
    "gracz_pl": ["V2", "V6", "V16"],
    "gamedesire": ["V2", "V11"],
    "mizerca": ["V4", "V5"],
    "east": ["V1", "V8", "V9", "V10", "V12", "V13", "V14", "V15"],
}


def test_the_presets_set_what_their_tables_play() -> None:
    assert list(PRESETS) == [*SETS, "custom"] and PRESETS["custom"] is None
    for key, ids in SETS.items():
        chosen = PRESETS[key]
        assert chosen is not None
        assert sorted((value_id(k, v) for k, v in chosen.items()), key=lambda i: int(i[1:])) == ids
    assert PRESETS["gracz_pl"] == {"bid_limit": "360", "mus": False, "barrel": "off"}
    assert PRESETS["gamedesire"] == {"bid_limit": "melds", "open_musik": True}
    assert PRESETS["mizerca"] == {"meld_needs_trick": True, "rounding": "10_down"}
    assert PRESETS["east"]["barrel"] == "880" and PRESETS["east"]["bid_step"] == 5


def test_a_preset_name_is_no_option() -> None:
    with pytest.raises(OptionsError):
        options_from_json({"preset": "east"})
