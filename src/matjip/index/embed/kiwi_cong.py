"""Offline Korean text embeddings from Kiwi's built-in CoNg language model.

Kiwi's CoNg model (the model the shared Kiwi already loads) holds a 256-dimensional embedding
for each of its ~70k in-vocabulary morphemes but only exposes cosine similarities between
them (``morpheme_similarity``). The similarity matrix of those unit vectors has rank 256, so
comparing a morpheme with a few hundred fixed *anchor* morphemes and projecting with
``K_ma U Λ^{-1/2}`` (Nyström, with ``K_aa = U Λ Uᵀ``) recovers its embedding exactly, up to a
fixed rotation shared by every morpheme.

The raw vectors are very anisotropic (two random morphemes have cosine ≈ 0.7; rare words all
sit in one tight cluster), so each vector is post-processed twice:

1. model-wide "all-but-the-top": minus the mean and the top 10 principal directions of an
   even sample of the model's content vocabulary (fixed for a given Kiwi model);
2. corpus whitening learnt at ``fit``: ``(C + εI)^{-1/2} (v - μ)`` over the corpus
   vocabulary (df-weighted), which spreads apart what the corpus needs to tell apart.

A text vector is the sqrt(idf)-weighted mean of its content morphemes' vectors (generic words
such as ``곳``/``좋다``/``맛집`` weigh 0.1). Out-of-vocabulary compounds (``뼈해장국``,
``물막국수``) are split into the longest in-vocabulary nouns they contain (``해장국``;
``막국수``). Latin-script words all share one class embedding in the model, so they carry no
meaning here and are skipped (BM25 and the LSA embedder see them).

Known limits: antonyms sit close (``조용`` / ``시끌벅적``), rare words and proper nouns get noisy
vectors, restaurant names say nothing. ``fit`` computes vectors for the corpus vocabulary in
one batch and ``save`` writes them (with the projection and both post-processing steps)
next to the index, so a loaded index only computes vectors for query morphemes it has never
seen (≈ 0.2 ms each).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FunctionType
from typing import TYPE_CHECKING, Final, cast

import numpy as np

from matjip.errors import EmbedderMismatchError
from matjip.index.embed._tokens import distinct_morphs, morphs_of, normalize, normalize_rows, saved_arrays
from matjip.text.kiwi import Morph, get_kiwi
from matjip.words import word_map, word_set

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

FILE_NAME = "kiwi_cong.npz"
_FORMAT = 1
DIM = 256

# Tags whose morphemes carry meaning and have individual CoNg vectors.
_NOUN_TAGS = frozenset({"NNG", "NNP"})
_CONTENT_TAGS: Final = word_set("index_tags", "kiwi_cong_content")

# Generic words of restaurant talk: they keep a small weight so that a query made only of them
# still gets a vector, but they must not outweigh what is specific.
_GENERIC: Final = frozenset(
    (form, tag) for tag, forms in word_map("embedding_generic", "generic").items() for form in forms
)
_GENERIC_WEIGHT = 0.1

Key = tuple[str, str]


# --- the model's vocabulary (process-wide, built once) -------------------------------------

_vocab_lock = threading.Lock()
_vocab: dict[Key, int] | None = None


def _lm_vocabulary(kiwi: Kiwi) -> dict[Key, int]:
    """``(form, tag) -> morpheme id`` for every morpheme that has a CoNg embedding."""
    global _vocab
    if _vocab is None:
        with _vocab_lock:
            if _vocab is None:
                table: dict[Key, int] = {}
                sim = _raw_similarity(kiwi)
                missing_run = 0
                i = 0
                # Embedded morphemes occupy the low ids; dictionary-only entries (NaN) follow.
                while missing_run < 256:
                    try:
                        tok = kiwi.morpheme(i)
                    except Exception:
                        break
                    if math.isnan(sim(i, i)):  # NaN: no embedding
                        missing_run += 1
                    else:
                        missing_run = 0
                        key = (str(tok.form), str(tok.tag))
                        table.setdefault(key, i)
                        table.setdefault((key[0], key[1].split("-", 1)[0]), i)
                    i += 1
                _vocab = table
    return _vocab


@dataclass
class _Basis:
    """Anchors, the projection from anchor similarities to 256-d coordinates, and the
    model-wide post-processing ("all-but-the-top": remove the mean and the top principal
    directions of the model's vocabulary, where frequency and rare-word clusters live)."""

    anchor_ids: np.ndarray  # (a,) int64
    anchor_forms: np.ndarray  # (a,) str, to detect a different Kiwi model at load time
    proj: np.ndarray  # (a, DIM) float32
    mean: np.ndarray  # (DIM,) float32
    top: np.ndarray  # (D, DIM) float32, orthonormal rows

    @classmethod
    def build(cls, kiwi: Kiwi, n_anchors: int, n_sample: int = 3000, n_top: int = 10) -> _Basis:
        vocab = _lm_vocabulary(kiwi)
        content = sorted({i for (_, tag), i in vocab.items() if tag in _CONTENT_TAGS})
        # Deterministic anchors: evenly spaced frequent content morphemes (low ids are frequent).
        frequent = [i for i in content if 200 <= i < 20_000]
        ids = np.array(frequent[:: max(1, len(frequent) // n_anchors)][:n_anchors], dtype=np.int64)
        k_aa = _similarities(kiwi, ids, ids)
        k_aa = (k_aa + k_aa.T) / 2
        evals, evecs = np.linalg.eigh(k_aa.astype(np.float64))
        order = np.argsort(evals)[::-1][:DIM]
        evals, evecs = evals[order], evecs[:, order]
        keep = evals > evals[0] * 1e-6
        proj = np.zeros((len(ids), DIM), dtype=np.float64)
        proj[:, keep] = evecs[:, keep] / np.sqrt(evals[keep])
        # Model-wide statistics from an even sample of the whole content vocabulary.
        sample = np.array(content[:: max(1, len(content) // n_sample)], dtype=np.int64)
        x = normalize_rows(_similarities(kiwi, sample, ids) @ proj).astype(np.float64)
        mean = x.mean(axis=0)
        evals_s, evecs_s = np.linalg.eigh((x - mean).T @ (x - mean))  # (eigh: LAPACK SVD is slow here)
        vt = evecs_s[:, np.argsort(evals_s)[::-1]].T
        forms = np.array([str(kiwi.morpheme(int(i)).form) for i in ids])
        return cls(
            ids, forms, proj.astype(np.float32), mean.astype(np.float32), vt[:n_top].astype(np.float32)
        )

    def vectors(self, kiwi: Kiwi, ids: Sequence[int]) -> np.ndarray:
        """Post-processed unit vectors of the given morpheme ids."""
        if not ids:
            return np.zeros((0, DIM), dtype=np.float32)
        x = normalize_rows(_similarities(kiwi, np.asarray(ids, dtype=np.int64), self.anchor_ids) @ self.proj)
        x = x - self.mean
        x = x - (x @ self.top.T) @ self.top
        return normalize_rows(x)

    def matches(self, kiwi: Kiwi) -> bool:
        return all(
            str(kiwi.morpheme(int(i)).form) == f
            for i, f in zip(self.anchor_ids, self.anchor_forms, strict=True)
        )


def _raw_similarity(kiwi: Kiwi) -> Callable[[int, int], float]:
    """``kiwi.morpheme_similarity`` for integer ids without the Python wrapper's type dispatch
    (4x faster over the millions of calls a fit makes); the public method if that is absent."""
    for cls in type(kiwi).__mro__[1:]:
        fn = cls.__dict__.get("morpheme_similarity")
        if fn is not None and not isinstance(fn, FunctionType):  # the compiled base method
            return cast("Callable[[int, int], float]", partial(fn, kiwi))
    return cast("Callable[[int, int], float]", kiwi.morpheme_similarity)


def _similarities(kiwi: Kiwi, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``(len(rows), len(cols))`` float32 matrix of model cosine similarities (NaN -> 0)."""
    sim = _raw_similarity(kiwi)
    col_list = [int(c) for c in cols]
    out = np.empty((len(rows), len(col_list)), dtype=np.float32)
    for j, r in enumerate(rows):
        out[j] = list(map(partial(sim, int(r)), col_list))
    return np.nan_to_num(out, nan=0.0)


# --- the embedder --------------------------------------------------------------------------


class KiwiCongEmbedder:
    """Korean text embedder from Kiwi's CoNg morpheme embeddings (256-d, offline, no weights)."""

    name = "kiwi-cong"
    dim = DIM

    def __init__(self, *, n_anchors: int = 320, whiten_eps: float | None = 0.01) -> None:
        self._n_anchors = n_anchors
        self._whiten_eps = whiten_eps
        self._lock = threading.Lock()
        self._basis: _Basis | None = None
        # Final per-morpheme vectors (None: the morpheme has no vector); a cache filled by
        # fit() for the corpus vocabulary and on the fly for new query morphemes.
        self._vectors: dict[Key, np.ndarray | None] = {}
        self._df: dict[Key, int] = {}
        self._n_docs = 0
        # Corpus whitening learnt at fit(): v -> normalize(W (v - mu)).
        self._mu: np.ndarray | None = None
        self._w: np.ndarray | None = None

    # -- protocol ---------------------------------------------------------------------------

    def fit(self, texts: Sequence[str]) -> None:
        df: Counter[Key] = Counter()
        for morphs, copies in distinct_morphs(texts):
            for key in set(self._content(morphs)):
                df[key] += copies
        with self._lock:
            self._df = dict(df)
            self._n_docs = len(texts)
            self._mu = self._w = None
            self._vectors = {}
        base = self._base_vectors(list(df))
        if self._whiten_eps is not None:
            self._mu, self._w = _whitening(
                [(v, df[k]) for k, v in base.items() if v is not None], self._whiten_eps
            )
        for key, v in base.items():
            self._vectors[key] = None if v is None else self._transform(v)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        docs = [self._content(ms) for ms in morphs_of(texts)]
        self._ensure_vectors({k for keys in docs for k in keys})
        if not docs:
            return np.zeros((0, DIM), dtype=np.float32)
        return normalize_rows(np.stack([self._mean_vector(keys) for keys in docs]))

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self.embed_documents([text])[0]
        return out

    def save(self, directory: Path) -> None:
        basis = self._get_basis()
        keys = sorted(self._vectors)
        vecs = np.zeros((len(keys), DIM), dtype=np.float32)
        has = np.zeros(len(keys), dtype=bool)
        for j, k in enumerate(keys):
            v = self._vectors[k]
            if v is not None:
                vecs[j] = v
                has[j] = True
        directory.mkdir(parents=True, exist_ok=True)
        np.savez(
            directory / FILE_NAME,
            format=np.array(_FORMAT),
            anchor_ids=basis.anchor_ids,
            anchor_forms=basis.anchor_forms,
            proj=basis.proj,
            mean=basis.mean,
            top=basis.top,
            forms=np.array([k[0] for k in keys], dtype=str),
            tags=np.array([k[1] for k in keys], dtype=str),
            vectors=vecs,
            has_vector=has,
            df=np.array([self._df.get(k, 0) for k in keys], dtype=np.int32),
            n_docs=np.array(self._n_docs),
            mu=self._mu if self._mu is not None else np.zeros(0, dtype=np.float32),
            whiten=self._w if self._w is not None else np.zeros((0, 0), dtype=np.float32),
        )

    def load(self, directory: Path) -> None:
        with saved_arrays(directory / FILE_NAME, "kiwi-cong", _FORMAT) as z:
            basis = _Basis(z["anchor_ids"], z["anchor_forms"], z["proj"], z["mean"], z["top"])
            forms, tags = z["forms"].tolist(), z["tags"].tolist()
            vecs, has, df = z["vectors"], z["has_vector"], z["df"]
            n_docs = int(z["n_docs"])
            mu, w = z["mu"], z["whiten"]
        kiwi = get_kiwi()
        if not basis.matches(kiwi):  # loads Kiwi's model, which the first analysis needs anyway
            raise EmbedderMismatchError(
                "The installed Kiwi model differs from the one the index was built with; rebuild the index"
            )
        # The model's vocabulary table (a walk over every morpheme id) is only needed for a query
        # morpheme the corpus never had; it is built then, or by warm() (`serve`, `chat`), so
        # that a start for one question stays short.
        # rows are views of the loaded array (nothing writes into them), made in one C-level pass
        keys: list[Key] = list(zip(forms, tags, strict=True))
        vectors: dict[Key, np.ndarray | None] = {
            key: row if h else None for key, row, h in zip(keys, list(vecs), has.tolist(), strict=True)
        }
        dfs: dict[Key, int] = {key: int(n) for key, n in zip(keys, df.tolist(), strict=True) if n}
        with self._lock:
            self._basis = basis
            self._vectors = vectors
            self._df = dfs
            self._n_docs = n_docs
            self._mu = mu.astype(np.float32) if mu.size else None
            self._w = w.astype(np.float32) if w.size else None

    # -- internals --------------------------------------------------------------------------

    @staticmethod
    def _content(morphs: Iterable[Morph]) -> list[Key]:
        out: list[Key] = []
        for m in morphs:
            tag = m.tag.split("-", 1)[0]
            if tag in _CONTENT_TAGS:
                out.append((m.form, tag))
        return out

    def _get_basis(self) -> _Basis:
        if self._basis is None:
            with self._lock:
                if self._basis is None:
                    self._basis = _Basis.build(get_kiwi(), self._n_anchors)
        return self._basis

    def _weight(self, key: Key) -> float:
        # sqrt(idf): rare words count more, but a query word the corpus never saw (often the
        # very paraphrase being searched for) must not drown the rest of the query.
        df = self._df.get(key, 0)
        w = math.sqrt(math.log((1 + self._n_docs) / (1 + df)) + 1.0)
        return w * _GENERIC_WEIGHT if key in _GENERIC else w

    def _mean_vector(self, keys: Sequence[Key]) -> np.ndarray:
        acc = np.zeros(DIM, dtype=np.float64)
        total = 0.0
        for key in keys:
            v = self._vectors.get(key)
            if v is None:
                continue
            w = self._weight(key)
            acc += w * v
            total += w
        if total == 0.0:
            return np.zeros(DIM, dtype=np.float32)
        return (acc / total).astype(np.float32)

    def _transform(self, v: np.ndarray) -> np.ndarray:
        if self._mu is None or self._w is None:
            return v
        return normalize(self._w @ (v - self._mu))

    def warm(self) -> None:
        """Build the model's vocabulary table now, so the first query with a new morpheme is
        not slower than the rest (``matjip serve``, ``chat``)."""
        _lm_vocabulary(get_kiwi())

    def _base_vectors(self, keys: Sequence[Key]) -> dict[Key, np.ndarray | None]:
        """Model vectors (step 1 applied, unit) of ``keys``, computed in one batch."""
        kiwi = get_kiwi()
        vocab = _lm_vocabulary(kiwi)
        basis = self._get_basis()
        plan: dict[Key, list[int]] = {}
        for key in keys:
            mid = vocab.get(key)
            if mid is not None:
                plan[key] = [mid]
            elif key[1] in _NOUN_TAGS:
                plan[key] = _split_compound(key[0], vocab)
            else:
                plan[key] = []
        ids = sorted({i for parts in plan.values() for i in parts})
        vecs = basis.vectors(kiwi, ids)
        row = {i: j for j, i in enumerate(ids)}
        return {
            key: normalize(vecs[[row[i] for i in parts]].mean(axis=0)) if parts else None
            for key, parts in plan.items()
        }

    def _ensure_vectors(self, keys: Iterable[Key]) -> None:
        """Compute (in one batch) and cache the vectors of morphemes not seen before."""
        todo = list({k for k in keys if k not in self._vectors})
        if todo:
            for key, v in self._base_vectors(todo).items():
                self._vectors[key] = None if v is None else self._transform(v)


def _whitening(weighted: Sequence[tuple[np.ndarray, int]], eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Weighted mean and shrunk whitening matrix ``(C + eps I)^{-1/2}`` of the corpus vectors."""
    if len(weighted) < 2:
        return np.zeros(DIM, dtype=np.float32), np.eye(DIM, dtype=np.float32)
    x = np.stack([v for v, _ in weighted]).astype(np.float64)
    w = np.array([c for _, c in weighted], dtype=np.float64)
    w /= w.sum()
    mu = w @ x
    xc = x - mu
    cov = (xc * w[:, None]).T @ xc
    evals, evecs = np.linalg.eigh(cov)
    inv_sqrt = evecs @ np.diag(1.0 / np.sqrt(np.maximum(evals, 0.0) + eps)) @ evecs.T
    return mu.astype(np.float32), inv_sqrt.astype(np.float32)


def _split_compound(form: str, vocab: dict[Key, int]) -> list[int]:
    """Ids of the in-vocabulary nouns (two syllables or more) that best cover ``form``.

    Dynamic programming over split points: maximise the characters covered, then prefer fewer
    pieces. Characters no noun covers are skipped (e.g. ``뼈해장국`` -> ``뼈`` + ``해장국``,
    ``순살`` -> nothing).
    """
    n = len(form)
    if n < 2 or n > 24:
        return []
    # best[i] = (covered, -pieces, ids) for form[:i]
    empty: list[int] = []
    best: list[tuple[int, int, list[int]]] = [(0, 0, empty)] + [(-1, 0, empty)] * n
    for end in range(1, n + 1):
        cov, neg, ids = best[end - 1]
        cand = (cov, neg, ids)  # skip one character
        for start in range(max(0, end - 12), end - 1):
            piece = form[start:end]
            mid = vocab.get((piece, "NNG"))
            if mid is None:
                mid = vocab.get((piece, "NNP"))
            if mid is None:
                continue
            pc, pn, pids = best[start]
            option = (pc + end - start, pn - 1, [*pids, mid])
            if option[:2] > cand[:2]:
                cand = option
        best[end] = cand
    return best[n][2]
