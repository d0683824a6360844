"""The dialogue gold set (issue 11's evaluation, not yet run by the product) parses and its test
split is unchanged since it was frozen."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

EVAL = Path(__file__).resolve().parents[1] / "src" / "matjip" / "eval"
DECISIONS = {"search", "refine", "answer", "compare", "place_relative", "smalltalk", "clarify_answer"}


def test_dialogue_set_parses_with_known_decisions() -> None:
    lines = (EVAL / "dialogue_set.jsonl").read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines if line.strip()]
    assert len(items) >= 80 and len({i["id"] for i in items}) == len(items)
    for item in items:
        assert item["split"] in ("dev", "test") and 2 <= len(item["turns"]) <= 5
        assert all(t["expect"]["decision"] in DECISIONS for t in item["turns"]), item["id"]


def test_dialogue_test_split_is_frozen() -> None:
    lines = (EVAL / "dialogue_set.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted(
        (json.loads(line)["id"], line) for line in lines if line.strip() and '"split": "test"' in line
    )
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_FROZEN.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "cases"),
    [
        ("dialogue_test2", 80),
        ("dialogue_test5", 125),
        ("dialogue_test6", 101),
        ("dialogue_test7", 138),
        ("dialogue_test8", 114),
        ("dialogue_test9", 118),
        ("dialogue_test10", 138),
        ("dialogue_test11", 142),
        ("dialogue_test12", 127),
        ("dialogue_test13", 127),
        ("dialogue_test14", 129),
        ("dialogue_test15", 122),
        ("dialogue_test16", 131),
        ("dialogue_test17", 132),
        ("dialogue_test18", 134),
        ("dialogue_test19", 138),
        ("dialogue_test20", 180),
        ("dialogue_test21", 173),
        ("dialogue_test22", 160),
    ],
)
def test_blind_dialogue_test_set_is_frozen(name: str, cases: int) -> None:
    lines = (EVAL / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == cases and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / f"{name}_FROZEN.txt").read_text(encoding="utf-8")


def test_gold_chain_notations_read_as_the_chain_exclusion() -> None:
    """A gold "체인"/"프차" is the plan's ``exclude_chains`` (scored as "프랜차이즈"); other words stay apart."""
    from matjip.agent.models import SearchPlan
    from matjip.eval.dialogue_eval import _exclusion_set, plan_exclusions

    chains = plan_exclusions(SearchPlan(kinds=["카페"], exclude_chains=True))
    assert chains == {"프랜차이즈"}
    assert _exclusion_set(["체인"]) == chains
    assert _exclusion_set(["프차"]) == chains
    assert _exclusion_set(["체인점"]) != chains


def test_an_unknown_answer_placeholder_is_refused(tmp_path: Path) -> None:
    """A gold "$1" (not "$ref1") was looked for as a literal title and failed every answer turn."""
    from matjip.eval.dialogue_eval import load_set

    turn = {"user": "거기 몇시까지 해?", "expect": {"decision": "answer", "answer_must_name": ["$1"]}}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"id": "x1", "split": "test", "turns": [turn]}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown placeholder"):
        load_set(path)
    turn["expect"]["answer_must_name"] = ["$ref1"]  # type: ignore[index]
    path.write_text(json.dumps({"id": "x1", "split": "test", "turns": [turn]}) + "\n", encoding="utf-8")
    assert load_set(path)[0]["id"] == "x1"


def test_a_device_position_written_as_a_pair_is_read_as_lat_lon(tmp_path: Path) -> None:
    """dialogue_test18 writes a GPS turn's position [lat, lon]; the scorer reads {"lat", "lon"}."""
    from matjip.eval.dialogue_eval import load_set

    turn = {"user": "여기 근처 국밥집", "gps": [37.5005, 127.1265], "expect": {"decision": "search"}}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"id": "x1", "split": "test", "turns": [turn]}) + "\n", encoding="utf-8")
    assert load_set(path)[0]["turns"][0]["gps"] == {"lat": 37.5005, "lon": 127.1265}
