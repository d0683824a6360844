"""Request and response bodies of the HTTP API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from matjip.agent.models import MAX_EXCLUDE_IDS, Card, Clarification, Sort, WebSource

# what a client may send as a session id: 8–128 letters, digits, '-' and '_', starting with a letter
# or digit (server-issued ids are 32 hex digits, or ``oa-…``); no dots, so never ".." or "."
SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_\-]{7,127}$"


def sse_schema(description: str, example: str, events: list[str] | None = None) -> dict[str, Any]:
    """The OpenAPI schema of one event of a ``text/event-stream`` body (an SSE event: its ``event``
    name, when sent, and its ``data`` text), with the whole stream as the example."""
    event: dict[str, Any] = {"type": "string"}
    if events:
        event["enum"] = events
    return {
        "type": "object",
        "description": description,
        "properties": {
            "event": event,
            "data": {"type": "string", "description": "JSON text, or `[DONE]`"},
            "id": {"type": "string"},
            "retry": {"type": "integer"},
        },
        "required": ["data"],
        "example": example,
    }


CHAT_EVENTS = [
    "session",
    "plan",
    "results",
    "clarification",
    "answer",
    "answer_reset",
    "trace",
    "error",
    "end",
]
CHAT_SSE_EXAMPLE = (
    'event: session\ndata: {"session_id":"f754dd28fa4c446fa9e5f807ff45209f"}\n\n'
    'event: plan\ndata: {"intent":"search"}\n\n'
    'event: results\ndata: [{"id":"90001","name":"스시 하나"}]\n\n'
    'event: answer\ndata: "강남역 근처 일식집 3곳을 찾았어요."\n\n'
    'event: trace\ndata: [{"node":"query_input","ms":0.1,"decision":"ok","detail":{}}]\n\n'
    "event: end\ndata: [DONE]\n\n"
)
OA_SSE_EXAMPLE = (
    'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735689600,"model":"matjip-agent",'
    '"system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"강남역"},"logprobs":null,'
    '"finish_reason":null}]}\n\n'
    "data: [DONE]\n\n"
)


class GeoPoint(BaseModel):
    """A WGS84 position, e.g. from the browser's ``navigator.geolocation``: JSON numbers only
    (``true`` or ``"37.5"`` is not a coordinate)."""

    lat: float = Field(ge=-90, le=90, strict=True, examples=[37.4979])
    lon: float = Field(ge=-180, le=180, strict=True, examples=[127.0276])


class ChatRequest(BaseModel):
    message: str = Field(
        min_length=1,
        pattern=r"\S",
        description="The user's message, not blank (limit: settings.max_message_chars).",
        examples=["강남역 일식 맛집"],
    )
    session_id: str | None = Field(
        None,
        pattern=SESSION_ID_PATTERN,
        description="Continue this conversation; omitted: a new session is created (see the `session` event).",
    )
    location: GeoPoint | None = Field(
        None, description="The user's GPS position, sent with this message (docs/design.md)."
    )


class ResultsRequest(BaseModel):
    """Another page of the session's last search, or the same search in another order."""

    session_id: str = Field(
        pattern=SESSION_ID_PATTERN, description="The conversation (see the `session` event)."
    )
    sort: Sort | None = Field(
        None,
        description="relevance, distance (가까운 순), rating (평점 순), price (가격 순) or reviews (리뷰 많은 순); omitted: the plan's order.",
    )
    exclude_ids: list[str] = Field(
        default_factory=list,
        max_length=MAX_EXCLUDE_IDS,
        description="Place ids already shown: the next page leaves them out (더 보기).",
    )


class CoverageRegion(BaseModel):
    sido: str = Field(examples=["서울"])
    sigungu: str = Field(examples=["송파구"])
    restaurants: int


class CoverageResponse(BaseModel):
    """What the data covers: the districts with most restaurants."""

    documents: int
    regions: list[CoverageRegion] = Field(default_factory=list, description="Most restaurants first.")
    summary: str = Field(description="One Korean line for people, e.g. on the empty page.")


class ParsedQuery(BaseModel):
    intent: str | None = None
    entities: dict[str, list[str]] = Field(default_factory=dict)
    filters: dict[str, Any] = Field(default_factory=dict)
    sort_preference: str = "relevance"


class SearchResponse(BaseModel):
    """docs/design.md search response, adapted to restaurants."""

    session_id: str
    summary: str = Field(description="One Korean sentence summarising the result.")
    answer: str = Field("", description="The agent's full answer text.")
    restaurants: list[Card] = Field(
        default_factory=list, description="Cards with score (0–1) and source_type (internal or web)."
    )
    total_count: int = 0
    parsed_query: ParsedQuery = Field(default_factory=ParsedQuery)
    top_score: float = 0.0
    is_sufficient: bool = False
    sufficiency_reason: str = ""
    web_sources: list[WebSource] = Field(default_factory=list)
    clarification: Clarification | None = None


class PlaceCandidate(BaseModel):
    name: str
    display_name: str
    type: str = Field(description="subway_station, legal_dong, admin_dong, sigungu, sido, hot_place, …")
    type_label: str | None = Field(None, description="The type in Korean (역, 동, 구 …).")
    region: str | None = Field(None, description="시도 and 시군구, e.g. 서울 영등포구.")
    lat: float
    lon: float
    default_radius_m: int | None = None


class PlacesResponse(BaseModel):
    query: str
    ambiguous: bool = False
    candidates: list[PlaceCandidate] = Field(default_factory=list)


class EmbedderInfo(BaseModel):
    """The embedder the index was built with (``configured``: what the settings ask for; a
    different value means the next ``matjip ingest`` rebuilds the index)."""

    name: str = Field(examples=["kiwi-cong"])
    dim: int | None = Field(None, description="Vector dimensions; unknown until the index is built.")
    configured: str = Field(examples=["kiwi-cong"])


class HealthResponse(BaseModel):
    status: Literal["ok", "degraded"]
    version: str
    index_loaded: bool
    documents: int | None = None
    embedder: EmbedderInfo | None = None
    data_key: str = Field(
        description="Fingerprint of the data directory (`matjip ask` reuses this server when it matches)."
    )
    llm_provider: str = "none"
    providers: dict[str, bool] = Field(
        default_factory=dict, description="Which providers are configured (no secrets)."
    )
    detail: str | None = None
    worker_pid: int | None = Field(
        default=None,
        description="The process that answered (`matjip serve --workers N` runs N on one port); "
        "every response also carries it in `X-Matjip-Worker`.",
    )


# --- OpenAI-compatible -----------------------------------------------------------------------


OA_ROLES = Literal["system", "developer", "user", "assistant", "tool", "function"]
_NON_BLANK = {"type": "string", "pattern": r"\S"}
# "at least one user message with text": the turn's question is the last such message
HAS_USER_TEXT: dict[str, Any] = {
    "contains": {
        "type": "object",
        "required": ["role", "content"],
        "properties": {
            "role": {"const": "user"},
            "content": {
                "anyOf": [
                    _NON_BLANK,
                    {
                        "type": "array",
                        "contains": {
                            "type": "object",
                            "required": ["type", "text"],
                            "properties": {"type": {"const": "text"}, "text": _NON_BLANK},
                        },
                    },
                ]
            },
        },
    }
}


class OAMessage(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: OA_ROLES = Field(examples=["user"])
    content: str | list[dict[str, Any]] | None = Field(None, examples=["강남역 일식 맛집 알려줘"])

    def text(self) -> str:
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        parts = [
            p["text"]
            for p in self.content
            if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
        return "\n".join(parts)


class OAStreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")

    include_usage: bool = Field(False, strict=True)


class OAChatRequest(BaseModel):
    """The subset of OpenAI's chat completion request that matters here; other fields are accepted and ignored."""

    model_config = ConfigDict(extra="allow")

    model: str = Field("matjip-agent", examples=["matjip-agent"])
    messages: list[OAMessage] = Field(
        min_length=1,
        json_schema_extra=HAS_USER_TEXT,
        description="The conversation; the turn's question is the last user message with text.",
    )
    stream: bool = Field(False, strict=True)
    stream_options: OAStreamOptions | None = None
    user: str | None = Field(
        None, max_length=256, description="Stable end-user id: the session is derived from it."
    )


class OAUsage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class OAResponseMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str | None = None
    refusal: str | None = None


class OAChoice(BaseModel):
    index: int = 0
    message: OAResponseMessage
    finish_reason: Literal["stop", "length"] = "stop"
    logprobs: None = None


class OAChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[OAChoice]
    usage: OAUsage
    system_fingerprint: str | None = None


class OAModel(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "matjip"


class OAModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[OAModel]
