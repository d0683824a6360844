"""Routing providers (issue 14): a road polyline for seed 003's route strategy and travel
distances/times for point travel, from a self-hosted OSRM server's HTTP API or Kakao Mobility
directions. Imported only when ``MATJIP_ROUTING_PROVIDER`` is set.

* OSRM: ``GET {base}/route/v1/{profile}/{lon},{lat};{lon},{lat}?overview=full&geometries=geojson``
  → ``{"code": "Ok", "routes": [{"geometry": {"coordinates": [[lon, lat], …]}, "distance", "duration"}]}``;
  ``GET {base}/table/v1/{profile}/{lon},{lat};…?sources=0&annotations=duration,distance`` →
  ``{"code": "Ok", "durations": [[…]], "distances": [[…]]}``. Profiles: ``foot``, ``driving``.
* Google Routes: ``POST https://routes.googleapis.com/directions/v2:computeRoutes`` (``origin`` /
  ``destination`` ``location.latLng``, ``travelMode`` DRIVE | WALK | TRANSIT) with ``X-Goog-Api-Key`` and
  ``X-Goog-FieldMask`` → ``{"routes": [{"distanceMeters", "duration": "165s", "polyline":
  {"encodedPolyline"}}]}``; travel times from ``POST …/distanceMatrix/v2:computeRouteMatrix`` → a JSON
  array of ``{"originIndex", "destinationIndex", "distanceMeters", "duration", "condition"}``.
* Kakao Mobility (car only): ``GET https://apis-navi.kakaomobility.com/v1/directions?origin=lon,lat&
  destination=lon,lat`` with ``Authorization: KakaoAK <key>`` → ``{"routes": [{"result_code": 0,
  "summary": {"distance", "duration"}, "sections": [{"roads": [{"vertexes": [x, y, x, y, …]}]}]}]}``.

Failures (timeout, HTTP 429 or other errors, unexpected JSON, ``code`` other than ``Ok``) raise
:class:`~matjip.errors.ProviderError`; the agent falls back to the straight line / the offline
estimate and says why in the trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from pydantic import BaseModel

from matjip.errors import ConfigurationError, ProviderError
from matjip.providers.places import _send
from matjip.settings import Settings, secret

KAKAO_MOBILITY_URL = "https://apis-navi.kakaomobility.com/v1/directions"
GOOGLE_ROUTES_URL = "https://routes.googleapis.com/directions/v2:computeRoutes"
GOOGLE_MATRIX_URL = "https://routes.googleapis.com/distanceMatrix/v2:computeRouteMatrix"
GOOGLE_MODES = {"walk": "WALK", "car": "DRIVE", "transit": "TRANSIT"}
OSRM_PROFILES = {"walk": "foot", "car": "driving", "transit": "driving"}
Point = tuple[float, float]


class RouteLine(BaseModel):
    points: list[Point]
    distance_m: float
    duration_s: float
    source: str


class Leg(BaseModel):
    distance_m: float | None = None
    duration_s: float | None = None


class OsrmRouting:
    source = "osrm"

    def __init__(
        self, base_url: str, *, timeout_s: float = 5.0, transport: httpx.BaseTransport | None = None
    ):
        if not base_url:
            raise ConfigurationError("OSRM needs its server's URL (MATJIP_OSRM_URL)")
        self.base = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._http = httpx.Client(timeout=httpx.Timeout(timeout_s), transport=transport)

    def _get(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
        data = _send(self._http, "osrm", self.timeout_s, method="GET", url=url, params=params)
        if data.get("code") != "Ok":
            raise ProviderError(f"osrm answered {str(data.get('code'))[:40]!r}")
        return data

    def route(self, a: Point, b: Point, mode: str = "car") -> RouteLine:
        coords = f"{a[1]:.6f},{a[0]:.6f};{b[1]:.6f},{b[0]:.6f}"
        data = self._get(
            f"{self.base}/route/v1/{OSRM_PROFILES.get(mode, 'driving')}/{coords}",
            {"overview": "full", "geometries": "geojson"},
        )
        try:
            r = data["routes"][0]
            points = [(float(lat), float(lon)) for lon, lat in r["geometry"]["coordinates"]]
            out = RouteLine(
                points=points,
                distance_m=float(r["distance"]),
                duration_s=float(r["duration"]),
                source=self.source,
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ProviderError("osrm sent a route without geometry") from exc
        if len(out.points) < 2:
            raise ProviderError("osrm sent a route without geometry")
        return out

    def travel(self, origin: Point, dests: Sequence[Point], mode: str = "walk") -> list[Leg]:
        if not dests:
            return []
        coords = ";".join(f"{p[1]:.6f},{p[0]:.6f}" for p in [origin, *dests])
        data = self._get(
            f"{self.base}/table/v1/{OSRM_PROFILES.get(mode, 'driving')}/{coords}",
            {"sources": "0", "annotations": "duration,distance"},
        )
        try:
            durations = data["durations"][0][1:]
            distances = (data.get("distances") or [[None] * (len(dests) + 1)])[0][1:]
            return [
                Leg(distance_m=None if d is None else float(d), duration_s=None if t is None else float(t))
                for t, d in zip(durations, distances, strict=True)
            ]
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ProviderError("osrm sent a table of another shape") from exc

    def close(self) -> None:
        self._http.close()


class KakaoMobility:
    """Car directions; travel times one call per destination."""

    source = "kakao-mobility"

    def __init__(
        self,
        api_key: str,
        *,
        url: str = KAKAO_MOBILITY_URL,
        timeout_s: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ):
        if not api_key:
            raise ConfigurationError("Kakao Mobility needs a REST API key (MATJIP_KAKAO_REST_API_KEY)")
        self.url = url
        self.timeout_s = timeout_s
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout_s),
            headers={"Authorization": f"KakaoAK {api_key}"},
            transport=transport,
        )

    def _directions(self, a: Point, b: Point) -> dict[str, Any]:
        params = {"origin": f"{a[1]},{a[0]}", "destination": f"{b[1]},{b[0]}"}
        data = _send(self._http, "kakao mobility", self.timeout_s, method="GET", url=self.url, params=params)
        try:
            r = data["routes"][0]
        except (KeyError, IndexError, TypeError) as exc:
            raise ProviderError("kakao mobility sent no route") from exc
        if r.get("result_code") != 0:
            raise ProviderError(f"kakao mobility: {str(r.get('result_msg'))[:60]}")
        return dict(r)

    def route(self, a: Point, b: Point, mode: str = "car") -> RouteLine:
        r = self._directions(a, b)
        try:
            points: list[Point] = []
            for section in r["sections"]:
                for road in section["roads"]:
                    v = road["vertexes"]
                    points += [(float(v[i + 1]), float(v[i])) for i in range(0, len(v) - 1, 2)]
            summary = r["summary"]
            return RouteLine(
                points=points,
                distance_m=float(summary["distance"]),
                duration_s=float(summary["duration"]),
                source=self.source,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProviderError("kakao mobility sent a route of another shape") from exc

    def travel(self, origin: Point, dests: Sequence[Point], mode: str = "car") -> list[Leg]:
        out = []
        for d in dests:
            line = self.route(origin, d)
            out.append(Leg(distance_m=line.distance_m, duration_s=line.duration_s))
        return out

    def close(self) -> None:
        self._http.close()


def decode_polyline(text: str) -> list[Point]:
    """Google's encoded polyline format (precision 1e-5) as (lat, lon) points."""
    points: list[Point] = []
    lat = lon = 0
    i = 0
    while i < len(text):
        deltas = []
        for _ in range(2):
            shift = result = 0
            while True:
                if i >= len(text):
                    raise ProviderError("google routes sent a truncated polyline")
                b = ord(text[i]) - 63
                i += 1
                result |= (b & 0x1F) << shift
                shift += 5
                if b < 0x20:
                    break
            deltas.append(~(result >> 1) if result & 1 else result >> 1)
        lat += deltas[0]
        lon += deltas[1]
        points.append((lat / 1e5, lon / 1e5))
    return points


def _seconds(value: Any) -> float:
    return float(str(value).rstrip("s"))


class GoogleRoutes:
    source = "google-routes"

    def __init__(
        self,
        api_key: str,
        *,
        url: str = GOOGLE_ROUTES_URL,
        matrix_url: str = GOOGLE_MATRIX_URL,
        timeout_s: float = 5.0,
        transport: httpx.BaseTransport | None = None,
    ):
        if not api_key:
            raise ConfigurationError("Google Routes needs an API key (MATJIP_GOOGLE_MAPS_API_KEY)")
        self.url, self.matrix_url = url, matrix_url
        self.timeout_s = timeout_s
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout_s), headers={"X-Goog-Api-Key": api_key}, transport=transport
        )

    @staticmethod
    def _waypoint(p: Point) -> dict[str, Any]:
        return {"location": {"latLng": {"latitude": p[0], "longitude": p[1]}}}

    def route(self, a: Point, b: Point, mode: str = "car") -> RouteLine:
        body = {
            "origin": self._waypoint(a),
            "destination": self._waypoint(b),
            "travelMode": GOOGLE_MODES.get(mode, "DRIVE"),
        }
        headers = {
            "X-Goog-FieldMask": "routes.duration,routes.distanceMeters,routes.polyline.encodedPolyline"
        }
        data = _send(
            self._http,
            "google routes",
            self.timeout_s,
            method="POST",
            url=self.url,
            json=body,
            headers=headers,
        )
        try:
            r = data["routes"][0]
            points = decode_polyline(str(r["polyline"]["encodedPolyline"]))
            out = RouteLine(
                points=points,
                distance_m=float(r["distanceMeters"]),
                duration_s=_seconds(r["duration"]),
                source=self.source,
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ProviderError("google routes sent a route of another shape") from exc
        if len(out.points) < 2:
            raise ProviderError("google routes sent a route without a polyline")
        return out

    def travel(self, origin: Point, dests: Sequence[Point], mode: str = "walk") -> list[Leg]:
        if not dests:
            return []
        body = {
            "origins": [{"waypoint": self._waypoint(origin)}],
            "destinations": [{"waypoint": self._waypoint(d)} for d in dests],
            "travelMode": GOOGLE_MODES.get(mode, "DRIVE"),
        }
        headers = {"X-Goog-FieldMask": "originIndex,destinationIndex,duration,distanceMeters,condition"}
        try:
            resp = self._http.post(self.matrix_url, json=body, headers=headers)
        except httpx.TimeoutException as exc:
            from matjip.errors import ProviderTimeout

            raise ProviderTimeout(f"google routes did not answer within {self.timeout_s:g}s") from exc
        except httpx.TransportError as exc:
            raise ProviderError(f"google routes unreachable: {type(exc).__name__}") from exc
        if resp.status_code >= 400:
            raise ProviderError(f"google routes HTTP {resp.status_code}")
        try:
            rows = resp.json()
            legs = [Leg() for _ in dests]
            for row in rows:
                if row.get("condition") == "ROUTE_EXISTS":
                    legs[int(row["destinationIndex"])] = Leg(
                        distance_m=float(row.get("distanceMeters", 0)), duration_s=_seconds(row["duration"])
                    )
            return legs
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ProviderError("google routes sent a matrix of another shape") from exc

    def close(self) -> None:
        self._http.close()


def routing_from_settings(settings: Settings) -> OsrmRouting | KakaoMobility | GoogleRoutes | None:
    """The configured routing provider (``MATJIP_ROUTING_PROVIDER``: osrm | kakao | google), or None."""
    if settings.routing_provider == "osrm":
        return OsrmRouting(settings.osrm_url or "", timeout_s=settings.live_timeout_s)
    if settings.routing_provider == "kakao":
        return KakaoMobility(secret(settings.kakao_rest_api_key) or "", timeout_s=settings.live_timeout_s)
    if settings.routing_provider == "google":
        return GoogleRoutes(secret(settings.google_maps_api_key) or "", timeout_s=settings.live_timeout_s)
    return None
