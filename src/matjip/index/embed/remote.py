"""Provider embedders: OpenAI-compatible and Gemini REST APIs (over httpx), and a local
sentence-transformers model directory.

None of this module is imported on the default path: the registry imports it only when a
provider embedder is configured. Provider vectors are returned as float32 and re-normalised
(some models, e.g. Gemini with a reduced ``outputDimensionality``, return non-unit vectors).
Empty texts are not sent; they get zero vectors. Failures raise :class:`ProviderTimeout` /
:class:`ProviderError`; a missing API key or package raises :class:`ConfigurationError`. Keys,
base URL, timeout and retries are passed in (the registry takes them from the settings).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import httpx
import numpy as np

from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout
from matjip.index.embed._tokens import normalize_rows
from matjip.providers.base import RETRY_STATUS


class _HttpEmbedder:
    """Shared machinery: configuration, batching, retries with back-off, error mapping,
    response checks. A subclass names its provider, models and where its key comes from."""

    PROVIDER: ClassVar[str]  # the name's prefix: "openai" -> "openai:<model>[@dims]"
    DEFAULT_MODEL: ClassVar[str]
    KNOWN_DIMS: ClassVar[dict[str, int]]
    name: str
    dim: int
    batch_size: int = 100

    def __init__(
        self,
        model: str | None = None,
        *,
        dimensions: int | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_s: float = 20.0,
        max_retries: int = 2,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._timeout = timeout_s
        self._max_retries = max_retries
        self._transport = transport
        self._client: httpx.Client | None = None
        self._sleep = sleep
        self.model = self._model_name(model or self.DEFAULT_MODEL)
        self.dimensions = dimensions
        self._key = self._api_key(api_key)
        self._base_url = (base_url or self._default_base_url()).rstrip("/")
        self.name = f"{self.PROVIDER}:{self.model}" + (f"@{dimensions}" if dimensions else "")
        self.dim = dimensions or self.KNOWN_DIMS.get(self.model, 0)  # 0: learnt from the first answer

    # -- to implement -----------------------------------------------------------------------

    def _model_name(self, model: str) -> str:
        return model

    def _api_key(self, given: str | None) -> str:
        """``given``; raises ConfigurationError if there is none."""
        raise NotImplementedError

    def _default_base_url(self) -> str:
        raise NotImplementedError

    def _request(self, texts: list[str], *, query: bool) -> tuple[str, dict[str, str], dict[str, Any]]:
        """URL, headers and JSON body of one batch request."""
        raise NotImplementedError

    def _parse(self, payload: Any, n: int) -> list[list[float]]:
        """The ``n`` vectors of a response, in request order."""
        raise NotImplementedError

    # -- protocol ---------------------------------------------------------------------------

    def fit(self, texts: Sequence[str]) -> None:
        return None

    def save(self, directory: Path) -> None:
        return None

    def load(self, directory: Path) -> None:
        return None

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts), query=False)

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self._embed([text], query=True)[0]
        return out

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- internals --------------------------------------------------------------------------

    def _http(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self._timeout, transport=self._transport)
        return self._client

    def _embed(self, texts: list[str], *, query: bool) -> np.ndarray:
        todo = [i for i, t in enumerate(texts) if t and t.strip()]
        vectors: dict[int, list[float]] = {}
        for start in range(0, len(todo), self.batch_size):
            idx = todo[start : start + self.batch_size]
            batch = self._post([texts[i] for i in idx], query=query)
            vectors.update(zip(idx, batch, strict=True))
        if vectors and not self.dim:
            self.dim = len(next(iter(vectors.values())))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, v in vectors.items():
            if len(v) != self.dim:
                raise ProviderError(f"{self.name}: expected {self.dim}-d vectors, got {len(v)}-d")
            out[i] = v
        return normalize_rows(out)

    def _post(self, texts: list[str], *, query: bool) -> list[list[float]]:
        url, headers, body = self._request(texts, query=query)
        attempt = 0
        while True:
            try:
                resp = self._http().post(url, headers=headers, json=body)
            except httpx.TimeoutException as e:
                if attempt >= self._max_retries:
                    raise ProviderTimeout(f"{self.name}: no answer within {self._timeout:g} s") from e
            except httpx.HTTPError as e:
                if attempt >= self._max_retries:
                    raise ProviderError(f"{self.name}: request failed: {e}") from e
            else:
                if resp.status_code < 400:
                    try:
                        vectors = self._parse(resp.json(), len(texts))
                    except (ValueError, KeyError, TypeError, IndexError) as e:
                        raise ProviderError(f"{self.name}: unexpected response: {e}") from e
                    return vectors
                if resp.status_code not in RETRY_STATUS or attempt >= self._max_retries:
                    detail = resp.text[:300].replace("\n", " ")
                    raise ProviderError(f"{self.name}: HTTP {resp.status_code}: {detail}")
            self._sleep(min(0.5 * 2**attempt, 8.0))
            attempt += 1


def _split_model(spec: str | None, default: str) -> tuple[str, int | None]:
    """``"model@768"`` -> ``("model", 768)``; ``None``/empty -> the default model."""
    if not spec:
        return default, None
    model, sep, dims = spec.partition("@")
    if not sep:
        return model, None
    if not dims.isdigit() or int(dims) <= 0:
        raise ConfigurationError(f"bad embedding dimension in {spec!r}: expected model@<positive int>")
    return model or default, int(dims)


class OpenAIEmbedder(_HttpEmbedder):
    """OpenAI-compatible ``POST {base_url}/embeddings``.

    Key from ``api_key`` (``OPENAI_API_KEY`` via the settings); base URL from ``base_url`` (the
    registry passes ``OPENAI_BASE_URL``, or ``settings.llm_base_url`` when ``llm_provider`` is
    ``openai``), else the OpenAI API.
    ``dimensions`` is passed through (text-embedding-3 models can shorten their vectors).
    """

    DEFAULT_MODEL = "text-embedding-3-small"
    KNOWN_DIMS: ClassVar[dict[str, int]] = {
        "text-embedding-3-small": 1536,
        "text-embedding-3-large": 3072,
        "text-embedding-ada-002": 1536,
    }
    PROVIDER = "openai"
    batch_size = 256

    def _api_key(self, given: str | None) -> str:
        if not given:
            raise ConfigurationError("the openai embedder needs an API key: set OPENAI_API_KEY")
        return given

    def _default_base_url(self) -> str:
        return "https://api.openai.com/v1"

    def _request(self, texts: list[str], *, query: bool) -> tuple[str, dict[str, str], dict[str, Any]]:
        body: dict[str, Any] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.dimensions:
            body["dimensions"] = self.dimensions
        return f"{self._base_url}/embeddings", {"Authorization": f"Bearer {self._key}"}, body

    def _parse(self, payload: Any, n: int) -> list[list[float]]:
        data = sorted(payload["data"], key=lambda d: int(d["index"]))
        if len(data) != n:
            raise ValueError(f"{len(data)} embeddings for {n} inputs")
        return [[float(x) for x in d["embedding"]] for d in data]


class GeminiEmbedder(_HttpEmbedder):
    """Gemini REST ``models/{model}:batchEmbedContents`` (no SDK).

    Key from ``api_key`` (``GEMINI_API_KEY`` or ``GOOGLE_API_KEY`` via the settings). Documents are embedded with
    task type ``RETRIEVAL_DOCUMENT``, queries with ``RETRIEVAL_QUERY``.
    """

    DEFAULT_MODEL = "gemini-embedding-001"
    KNOWN_DIMS: ClassVar[dict[str, int]] = {"gemini-embedding-001": 3072, "text-embedding-004": 768}
    BASE_URL = "https://generativelanguage.googleapis.com/v1beta"
    PROVIDER = "gemini"
    batch_size = 100  # the API's per-request limit

    def _model_name(self, model: str) -> str:
        return model.removeprefix("models/")

    def _api_key(self, given: str | None) -> str:
        if not given:
            raise ConfigurationError(
                "the gemini embedder needs an API key: set GEMINI_API_KEY or GOOGLE_API_KEY"
            )
        return given

    def _default_base_url(self) -> str:
        return self.BASE_URL

    def _request(self, texts: list[str], *, query: bool) -> tuple[str, dict[str, str], dict[str, Any]]:
        task = "RETRIEVAL_QUERY" if query else "RETRIEVAL_DOCUMENT"
        requests: list[dict[str, Any]] = []
        for t in texts:
            r: dict[str, Any] = {
                "model": f"models/{self.model}",
                "content": {"parts": [{"text": t}]},
                "taskType": task,
            }
            if self.dimensions:
                r["outputDimensionality"] = self.dimensions
            requests.append(r)
        url = f"{self._base_url}/models/{self.model}:batchEmbedContents"
        return url, {"x-goog-api-key": self._key}, {"requests": requests}

    def _parse(self, payload: Any, n: int) -> list[list[float]]:
        embeddings = payload["embeddings"]
        if len(embeddings) != n:
            raise ValueError(f"{len(embeddings)} embeddings for {n} inputs")
        return [[float(x) for x in e["values"]] for e in embeddings]


class SentenceTransformerEmbedder:
    """A local sentence-transformers model directory (``st:/path/to/dir``); nothing is downloaded."""

    def __init__(self, directory: str | Path, *, batch_size: int = 64) -> None:
        path = Path(directory).expanduser()
        if not path.is_dir():
            raise ConfigurationError(
                f"st embedder: {path} is not a directory holding a sentence-transformers model"
            )
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise ConfigurationError(
                "the st:<dir> embedder needs the sentence-transformers package "
                "(pip install sentence-transformers); it is not installed"
            ) from e
        try:
            self._model: Any = SentenceTransformer(str(path), local_files_only=True)
        except Exception as e:  # a broken or incomplete model directory
            raise ConfigurationError(f"st embedder: cannot load the model in {path}: {e}") from e
        self.name = f"st:{directory}"
        self.dim = int(self._model.get_sentence_embedding_dimension() or 0)
        self._batch_size = batch_size

    def fit(self, texts: Sequence[str]) -> None:
        return None

    def save(self, directory: Path) -> None:
        return None

    def load(self, directory: Path) -> None:
        return None

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if t and t.strip()]
        if todo:
            vecs = self._model.encode(
                [texts[i] for i in todo],
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            out[todo] = np.asarray(vecs, dtype=np.float32)
        return normalize_rows(out)

    def embed_query(self, text: str) -> np.ndarray:
        out: np.ndarray = self.embed_documents([text])[0]
        return out
