"""Live place search (issue 14, seed 003's provider split): Kakao Local for domestic places outside
the index and for the 관광지/숙박 stops of a course, Google Places for places abroad.

Both speak their real HTTP APIs through httpx (a transport can be injected, which is how the tests'
protocol-level fakes answer). Every failure — timeout, HTTP error such as 429, a body that is not
the expected JSON — raises :class:`~matjip.errors.ProviderError` with the reason; the agent falls
back to its offline strategy and writes the reason in the trace. Results are :class:`LivePlace`
values: shown as cards marked with their source, never written into the index. This module is
imported only when a key is configured.

* Kakao Local: ``GET https://dapi.kakao.com/v2/local/search/keyword.json`` (``query``, ``x``,
  ``y``, ``radius`` ≤ 20000, ``size`` ≤ 15) and ``…/category.json`` (``category_group_code``:
  ``AT4`` 관광명소, ``AD5`` 숙박, ``FD6`` 음식점, ``CE7`` 카페) with ``Authorization: KakaoAK <key>``;
  the body's ``documents`` carry ``id``, ``place_name``, ``category_name``, ``address_name``,
  ``road_address_name``, ``x`` (lon), ``y`` (lat), ``place_url``, ``phone``.
* Google Places (New): ``POST https://places.googleapis.com/v1/places:searchText`` with
  ``X-Goog-Api-Key`` and ``X-Goog-FieldMask``; the body's ``places`` carry ``id``,
  ``displayName.text``, ``formattedAddress``, ``location.latitude/longitude``, ``googleMapsUri``,
  ``primaryTypeDisplayName.text``, ``rating``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from pydantic import BaseModel

from matjip.errors import ConfigurationError, ProviderError, ProviderTimeout
from matjip.settings import Settings, secret

KAKAO_LOCAL_URL = "https://dapi.kakao.com/v2/local/search"
GOOGLE_PLACES_URL = "https://places.googleapis.com/v1/places:searchText"
GOOGLE_FIELDS = (
    "places.id,places.displayName,places.formattedAddress,places.location,places.googleMapsUri,"
    "places.primaryTypeDisplayName,places.rating,places.userRatingCount"
)


class LivePlace(BaseModel):
    """One place from a live provider (never stored)."""

    id: str
    name: str
    category: str = ""
    address: str = ""
    lat: float | None = None
    lon: float | None = None
    url: str | None = None
    phone: str | None = None
    rating: float | None = None
    source: str


def _json(resp: httpx.Response, who: str) -> dict[str, Any]:
    if resp.status_code >= 400:
        raise ProviderError(f"{who} HTTP {resp.status_code}: {resp.text[:120]!r}")
    try:
        data = resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
        raise ProviderError(f"{who} sent a body that is not JSON") from exc
    if not isinstance(data, dict):
        raise ProviderError(f"{who} sent an unexpected body")
    return data


def _send(client: httpx.Client, who: str, timeout_s: float, **request: Any) -> dict[str, Any]:
    try:
        resp = client.request(**request)
    except httpx.TimeoutException as exc:
        raise ProviderTimeout(f"{who} did not answer within {timeout_s:g}s") from exc
    except httpx.TransportError as exc:
        raise ProviderError(f"{who} unreachable: {type(exc).__name__}") from exc
    return _json(resp, who)


def _float(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


class KakaoLocal:
    """Kakao Local keyword and category search around a point."""

    source = "kakao"

    def __init__(
        self,
        api_key: str,
        *,
        url: str = KAKAO_LOCAL_URL,
        timeout_s: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not api_key:
            raise ConfigurationError("Kakao Local needs a REST API key (MATJIP_KAKAO_REST_API_KEY)")
        self.url = url.rstrip("/")
        self.timeout_s = timeout_s
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout_s),
            headers={"Authorization": f"KakaoAK {api_key}"},
            transport=transport,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> KakaoLocal | None:
        key = secret(settings.kakao_rest_api_key)
        return cls(key, timeout_s=settings.live_timeout_s) if key else None

    def _search(self, path: str, params: dict[str, Any]) -> list[LivePlace]:
        data = _send(
            self._http, "kakao local", self.timeout_s, method="GET", url=f"{self.url}/{path}", params=params
        )
        docs = data.get("documents")
        if not isinstance(docs, list):
            raise ProviderError("kakao local sent no documents")
        out: list[LivePlace] = []
        for d in docs:
            if not isinstance(d, dict) or not d.get("place_name"):
                continue
            out.append(
                LivePlace(
                    id=f"kakao:{d.get('id')}",
                    name=str(d["place_name"]),
                    category=str(d.get("category_name") or ""),
                    address=str(d.get("road_address_name") or d.get("address_name") or ""),
                    lat=_float(d.get("y")),
                    lon=_float(d.get("x")),
                    url=str(d["place_url"]) if d.get("place_url") else None,
                    phone=str(d["phone"]) if d.get("phone") else None,
                    source=self.source,
                )
            )
        return out

    def keyword(self, query: str, lat: float, lon: float, radius_m: int, size: int = 5) -> list[LivePlace]:
        params = {
            "query": query[:100],
            "x": lon,
            "y": lat,
            "radius": min(20_000, radius_m),
            "size": min(15, size),
        }
        return self._search("keyword.json", params)

    def category(self, code: str, lat: float, lon: float, radius_m: int, size: int = 5) -> list[LivePlace]:
        params = {
            "category_group_code": code,
            "x": lon,
            "y": lat,
            "radius": min(20_000, radius_m),
            "size": min(15, size),
            "sort": "distance",
        }
        return self._search("category.json", params)

    def close(self) -> None:
        self._http.close()


class GooglePlaces:
    """Google Places text search (places abroad)."""

    source = "google"

    def __init__(
        self,
        api_key: str,
        *,
        url: str = GOOGLE_PLACES_URL,
        timeout_s: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not api_key:
            raise ConfigurationError("Google Places needs an API key (MATJIP_GOOGLE_MAPS_API_KEY)")
        self.url = url
        self.timeout_s = timeout_s
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout_s),
            headers={"X-Goog-Api-Key": api_key, "X-Goog-FieldMask": GOOGLE_FIELDS},
            transport=transport,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> GooglePlaces | None:
        key = secret(settings.google_maps_api_key)
        return cls(key, timeout_s=settings.live_timeout_s) if key else None

    def text(self, query: str, size: int = 5) -> list[LivePlace]:
        body = {"textQuery": query[:200], "languageCode": "ko", "maxResultCount": min(20, size)}
        data = _send(self._http, "google places", self.timeout_s, method="POST", url=self.url, json=body)
        places = data.get("places", [])
        if not isinstance(places, list):
            raise ProviderError("google places sent no places")
        out: list[LivePlace] = []
        for p in places:
            if not isinstance(p, dict):
                continue
            name = (
                (p.get("displayName") or {}).get("text") if isinstance(p.get("displayName"), dict) else None
            )
            if not name:
                continue
            loc: dict[str, Any] = p["location"] if isinstance(p.get("location"), dict) else {}
            kind = p.get("primaryTypeDisplayName")
            out.append(
                LivePlace(
                    id=f"google:{p.get('id')}",
                    name=str(name),
                    category=str(kind.get("text") or "") if isinstance(kind, dict) else "",
                    address=str(p.get("formattedAddress") or ""),
                    lat=_float(loc.get("latitude")),
                    lon=_float(loc.get("longitude")),
                    url=str(p["googleMapsUri"]) if p.get("googleMapsUri") else None,
                    rating=_float(p.get("rating")),
                    source=self.source,
                )
            )
        return out

    def close(self) -> None:
        self._http.close()
