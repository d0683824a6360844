"""The dialogue gold set (issue 11's evaluation, not yet run by the product) parses and its test
split is unchanged since it was frozen."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

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


def test_second_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test2.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 80 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test2_FROZEN.txt").read_text(encoding="utf-8")


def test_fifth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test5.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 125 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test5_FROZEN.txt").read_text(encoding="utf-8")


def test_sixth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test6.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 101 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test6_FROZEN.txt").read_text(encoding="utf-8")


def test_seventh_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test7.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 138 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test7_FROZEN.txt").read_text(encoding="utf-8")


def test_eighth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test8.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 114 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test8_FROZEN.txt").read_text(encoding="utf-8")


def test_ninth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test9.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 118 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test9_FROZEN.txt").read_text(encoding="utf-8")


def test_tenth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test10.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 138 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test10_FROZEN.txt").read_text(encoding="utf-8")


def test_eleventh_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test11.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 142 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test11_FROZEN.txt").read_text(encoding="utf-8")


def test_twelfth_dialogue_test_set_is_frozen() -> None:
    lines = (EVAL / "dialogue_test12.jsonl").read_text(encoding="utf-8").splitlines()
    test = sorted((json.loads(line)["id"], line) for line in lines if line.strip())
    assert len(test) == 127 and all('"split": "test"' in line for _, line in test)
    digest = hashlib.sha256("".join(line + "\n" for _, line in test).encode()).hexdigest()
    assert digest in (EVAL / "dialogue_test12_FROZEN.txt").read_text(encoding="utf-8")


def test_gold_chain_notations_read_as_the_chain_exclusion() -> None:
    """A gold "체인"/"프차" is the plan's ``exclude_chains`` (scored as "프랜차이즈"); other words stay apart."""
    from matjip.agent.models import SearchPlan
    from matjip.eval.dialogue_eval import _exclusion_set, plan_exclusions

    chains = plan_exclusions(SearchPlan(kinds=["카페"], exclude_chains=True))
    assert chains == {"프랜차이즈"}
    assert _exclusion_set(["체인"]) == chains
    assert _exclusion_set(["프차"]) == chains
    assert _exclusion_set(["체인점"]) != chains
