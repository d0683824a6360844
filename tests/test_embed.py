"""Offline embedders: hashing, LSA, kiwi-cong, combo, registry, evaluation helper."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from matjip.errors import ConfigurationError, EmbedderMismatchError, SearchIndexError
from matjip.index.embed import Embedder, get_embedder
from matjip.index.embed.combo import ComboEmbedder
from matjip.index.embed.evaluation import EvalQuery, EvalSet, evaluate
from matjip.index.embed.hashing import HashingEmbedder
from matjip.index.embed.lsa import LsaEmbedder, _Csr, randomized_svd
from matjip.index.embed.registry import create

CORPUS = [
    "일본식라면 전문점. 돈코츠 라멘, 차슈 토핑.",
    "돈코츠 라멘과 교자. 일본식 라멘집.",
    "라멘 전문. 미소 라멘, 돈코츠 라멘.",
    "삼겹살과 목살을 굽는 고깃집. 단체석 완비.",
    "삼겹살 전문점. 목살, 항정살, 단체석.",
    "치킨 호프. 후라이드치킨, 양념치킨, 생맥주.",
    "치킨과 생맥주. 양념치킨 맛집.",
    "해장국집. 뼈해장국, 선지해장국, 콩나물국밥.",
    "아늑한 분위기의 카페. 조용하고 좌석이 넓음.",
    "",
]


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


def _check_vectors(m: np.ndarray, n: int, dim: int) -> None:
    assert m.shape == (n, dim)
    assert m.dtype == np.float32
    norms = np.linalg.norm(m, axis=1)
    assert np.all((np.abs(norms - 1) < 1e-4) | (norms == 0))


# --- hashing -------------------------------------------------------------------------------


def test_hashing_shapes_and_norms() -> None:
    e = HashingEmbedder()
    m = e.embed_documents(CORPUS)
    _check_vectors(m, len(CORPUS), 256)
    assert not m[-1].any(), "empty text -> zero vector"
    assert np.allclose(e.embed_query(CORPUS[0]), m[0])
    assert isinstance(e, Embedder)


def test_hashing_is_deterministic_across_processes() -> None:
    code = "from matjip.index.embed.hashing import HashingEmbedder as H; print(H().embed_query('뼈해장국 맛집')[:8].tolist())"
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    assert len(outs) == 1
    assert outs.pop().strip() == str(HashingEmbedder().embed_query("뼈해장국 맛집")[:8].tolist())


def test_hashing_sees_shared_spelling_only() -> None:
    e = HashingEmbedder()
    q = e.embed_query("해장국")
    assert _cos(q, e.embed_query("뼈해장국 선지해장국")) > _cos(q, e.embed_query("파스타 리조또")) + 0.2


# --- LSA -----------------------------------------------------------------------------------


def test_csr_products_match_dense() -> None:
    rng = np.random.default_rng(0)
    a = (rng.random((40, 30)) < 0.2) * rng.random((40, 30))
    a[5] = 0  # an empty row
    csr = _Csr.from_rows([{int(j): float(a[i, j]) for j in np.flatnonzero(a[i])} for i in range(40)], 30)
    b = rng.standard_normal((30, 4))
    assert np.allclose(csr.matmul(b), a @ b)
    assert np.allclose(csr.matmul(b, block_bytes=64), a @ b)  # many tiny blocks
    c = rng.standard_normal((40, 3))
    assert np.allclose(csr.transpose().matmul(c), a.T @ c)


def test_randomized_svd_recovers_low_rank() -> None:
    rng = np.random.default_rng(1)
    a = rng.random((60, 8)) @ rng.random((8, 50))
    csr = _Csr.from_rows([{j: float(a[i, j]) for j in range(50)} for i in range(60)], 50)
    s, v = randomized_svd(csr, 8)
    s_ref = np.linalg.svd(a, compute_uv=False)[:8]
    assert np.allclose(s, s_ref, rtol=1e-6)
    assert np.allclose(v.T @ v, np.eye(8), atol=1e-8)


def test_lsa_fit_embed_save_load(tmp_path: Path) -> None:
    e = LsaEmbedder()
    with pytest.raises(SearchIndexError):
        e.embed_query("라멘")
    e.fit(CORPUS)
    m = e.embed_documents(CORPUS)
    _check_vectors(m, len(CORPUS), 256)
    assert not m[-1].any()
    assert not e.embed_query("에펠탑 우주선").any(), "words the corpus never saw have no vector"
    # co-occurrence: 돈코츠 appears with 라멘, so a 라멘-only text is close to it
    q = e.embed_query("돈코츠")
    ramen_only = e.embed_query("미소 라멘")
    pork = e.embed_query("삼겹살 목살")
    assert _cos(q, ramen_only) > _cos(q, pork) + 0.3
    e.save(tmp_path)
    f = LsaEmbedder()
    f.load(tmp_path)
    assert np.allclose(f.embed_documents(CORPUS), m, atol=1e-6)
    with pytest.raises(SearchIndexError):
        LsaEmbedder().load(tmp_path / "nowhere")


# --- kiwi-cong -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cong() -> Embedder:
    from matjip.index.embed.kiwi_cong import KiwiCongEmbedder

    e = KiwiCongEmbedder()
    e.fit(CORPUS)
    return e


def test_kiwi_cong_recovers_the_model_similarities() -> None:
    """The Nyström projection must reproduce Kiwi's own morpheme cosine similarities."""
    from matjip.index.embed.kiwi_cong import DIM, KiwiCongEmbedder, _lm_vocabulary, _similarities
    from matjip.text.kiwi import get_kiwi

    kiwi = get_kiwi()
    vocab = _lm_vocabulary(kiwi)
    basis = KiwiCongEmbedder()._get_basis()
    words = [
        ("라멘", "NNG"),
        ("라면", "NNG"),
        ("치킨", "NNG"),
        ("조용", "XR"),
        ("맛있", "VA"),
        ("굽", "VV"),
        ("해장국", "NNG"),
    ]
    ids = np.array([vocab[w] for w in words], dtype=np.int64)
    raw = _similarities(kiwi, ids, basis.anchor_ids) @ basis.proj
    assert raw.shape == (len(words), DIM)
    raw /= np.linalg.norm(raw, axis=1, keepdims=True)
    for i in range(len(ids)):
        for j in range(len(ids)):
            assert abs(float(raw[i] @ raw[j]) - kiwi.morpheme_similarity(int(ids[i]), int(ids[j]))) < 2e-3


def test_kiwi_cong_splits_unknown_compounds() -> None:
    from matjip.index.embed.kiwi_cong import _lm_vocabulary, _split_compound
    from matjip.text.kiwi import get_kiwi

    vocab = _lm_vocabulary(get_kiwi())
    assert ("뼈해장국", "NNG") not in vocab
    assert _split_compound("뼈해장국", vocab) == [vocab[("해장국", "NNG")]]
    assert _split_compound("가", vocab) == []


def test_kiwi_cong_vectors(cong: Embedder) -> None:
    assert (cong.name, cong.dim) == ("kiwi-cong", 256)
    assert isinstance(cong, Embedder)
    m = cong.embed_documents(CORPUS)
    _check_vectors(m, len(CORPUS), 256)
    assert not m[-1].any()
    assert np.allclose(cong.embed_query(CORPUS[3]), m[3], atol=1e-6)
    assert np.linalg.norm(cong.embed_query("ㅋㅋㅋ ... !!")) == 0  # nothing with a vector


def test_kiwi_cong_is_semantic(cong: Embedder) -> None:
    docs = cong.embed_documents(
        ["일본식라면 전문점. 돈코츠, 차슈.", "삼겹살 목살 고깃집", "치킨 호프, 생맥주"]
    )
    for query, best in (("라멘", 0), ("돼지고기 구이", 1), ("치맥", 2)):
        scores = docs @ cong.embed_query(query)
        assert int(np.argmax(scores)) == best, (query, scores)


def test_kiwi_cong_save_load(cong: Embedder, tmp_path: Path) -> None:
    from matjip.index.embed.kiwi_cong import FILE_NAME, KiwiCongEmbedder

    before = cong.embed_documents(CORPUS)
    cong.save(tmp_path)
    fresh = KiwiCongEmbedder()
    fresh.load(tmp_path)
    assert np.allclose(fresh.embed_documents(CORPUS), before, atol=1e-5)
    # a morpheme neither the corpus nor earlier queries had is computed on the fly, identically
    novel = "유럽풍 테라스 브런치"
    assert np.allclose(fresh.embed_query(novel), cong.embed_query(novel), atol=1e-5)

    # a different Kiwi model (simulated: other anchor forms) must be refused
    with np.load(tmp_path / FILE_NAME) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["anchor_forms"] = np.array(["?"] * len(arrays["anchor_forms"]))
    bad = tmp_path / "bad"
    bad.mkdir()
    np.savez(bad / FILE_NAME, **arrays)
    with pytest.raises(EmbedderMismatchError):
        KiwiCongEmbedder().load(bad)
    with pytest.raises(SearchIndexError):
        KiwiCongEmbedder().load(tmp_path / "nowhere")


# --- combo ---------------------------------------------------------------------------------


def test_combo_cosine_is_weighted_mean() -> None:
    a, b = HashingEmbedder(64), HashingEmbedder(128)
    combo = ComboEmbedder([a, b], [3, 1])
    assert combo.dim == 192
    assert combo.weights == [0.75, 0.25]
    x, y = "돈코츠 라멘", "일본식 라면 차슈"
    expected = 0.75 * _cos(a.embed_query(x), a.embed_query(y)) + 0.25 * _cos(
        b.embed_query(x), b.embed_query(y)
    )
    assert abs(_cos(combo.embed_query(x), combo.embed_query(y)) - expected) < 1e-5
    m = combo.embed_documents([x, y, ""])
    _check_vectors(m, 3, 192)
    with pytest.raises(ValueError):
        ComboEmbedder([a], [1, 2])


# --- registry ------------------------------------------------------------------------------


def test_registry_offline_names() -> None:
    from matjip.index.embed.kiwi_cong import KiwiCongEmbedder

    assert isinstance(create("kiwi-cong"), KiwiCongEmbedder)
    assert isinstance(create(" LSA "), LsaEmbedder)
    assert isinstance(get_embedder("hash"), HashingEmbedder)
    combo = create("combo")
    assert combo.name == "combo" and combo.dim == 512
    for name in ("kiwi-cong", "lsa", "hash", "combo"):
        assert isinstance(create(name), Embedder)


def test_registry_unknown_name_lists_known() -> None:
    with pytest.raises(ConfigurationError) as info:
        create("bert")
    for known in ("kiwi-cong", "lsa", "hash", "openai", "gemini", "st:<dir>"):
        assert known in str(info.value)
    with pytest.raises(ConfigurationError):
        create("hash:512")
    with pytest.raises(ConfigurationError):
        create("st:")


def test_registry_default_path_does_not_import_providers() -> None:
    code = (
        "import sys\n"
        "from matjip.index.embed.registry import create\n"
        "create('kiwi-cong'); create('hash'); create('lsa')\n"
        "assert 'matjip.index.embed.remote' not in sys.modules\n"
        "assert 'sentence_transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_registry_st_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigurationError, match="not a directory"):
        create(f"st:{tmp_path / 'missing'}")
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails
    with pytest.raises(ConfigurationError, match="sentence-transformers"):
        create(f"st:{tmp_path}")


# --- evaluation helper ---------------------------------------------------------------------


class _Fixed:
    """An embedder returning preset vectors (by text)."""

    name = "fixed"
    dim = 2

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def fit(self, texts: Sequence[str]) -> None:
        return None

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.table.get(t, [0.0, 0.0]) for t in texts], dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return np.array(self.table.get(text, [0.0, 0.0]), dtype=np.float32)

    def save(self, directory: Path) -> None:
        return None

    def load(self, directory: Path) -> None:
        return None


def test_evaluate_mrr_and_ties() -> None:
    data = EvalSet(
        ["a", "b", "c"],
        ["A", "B", "C"],
        [
            EvalQuery("qa", frozenset({"a"})),
            EvalQuery("qb", frozenset({"b"})),
            EvalQuery("none", frozenset({"c"})),
        ],
    )
    emb = _Fixed({"A": [1, 0], "B": [0.6, 0.8], "C": [0, 1], "qa": [1, 0], "qb": [1, 0]})
    r = evaluate(emb, data)
    # qa: a first; qb: b second (a scores higher); none: zero query, every doc ties -> last
    assert r.ranks == [1, 2, 3]
    assert abs(r.mrr - (1 + 1 / 2 + 1 / 3) / 3) < 1e-9
    assert abs(r.top1 - 1 / 3) < 1e-9
