"""Real-shaped bodies of the live providers of issue 14 (Kakao Local, Google Places, OSRM), for
``fakes.http.Script`` (an httpx ``MockTransport``): the JSON the real services send."""

from __future__ import annotations

from typing import Any

from fakes.http import Reply


def kakao_documents(places: list[dict[str, Any]], *, total: int | None = None) -> dict[str, Any]:
    """``GET /v2/local/search/{keyword,category}.json`` of Kakao Local."""
    docs = [
        {
            "id": str(p.get("id", 1000 + i)),
            "place_name": p["name"],
            "category_name": p.get("category", "여행 > 관광,명소 > 공원"),
            "category_group_code": p.get("code", "AT4"),
            "category_group_name": p.get("group", "관광명소"),
            "phone": p.get("phone", ""),
            "address_name": p.get("address", "서울 송파구 잠실동 47"),
            "road_address_name": p.get("road", ""),
            "x": str(p["lon"]),
            "y": str(p["lat"]),
            "place_url": f"http://place.map.kakao.com/{p.get('id', 1000 + i)}",
            "distance": str(p.get("distance", 120 + i)),
        }
        for i, p in enumerate(places)
    ]
    n = total if total is not None else len(docs)
    return {
        "documents": docs,
        "meta": {"is_end": True, "pageable_count": n, "same_name": None, "total_count": n},
    }


def google_places(places: list[dict[str, Any]]) -> dict[str, Any]:
    """``POST /v1/places:searchText`` of Google Places (New), with the field mask's fields."""
    return {
        "places": [
            {
                "id": p.get("id", f"ChIJ{i:04d}abcdef"),
                "displayName": {"text": p["name"], "languageCode": "ja"},
                "formattedAddress": p.get("address", "日本、〒150-0043 東京都渋谷区道玄坂２丁目"),
                "location": {"latitude": p["lat"], "longitude": p["lon"]},
                "googleMapsUri": f"https://maps.google.com/?cid={1234 + i}",
                "primaryTypeDisplayName": {"text": p.get("type", "라멘 전문점"), "languageCode": "ko"},
                "rating": p.get("rating", 4.2),
                "userRatingCount": 812,
            }
            for i, p in enumerate(places)
        ]
    }


def osrm_route(points: list[tuple[float, float]], distance: float, duration: float) -> dict[str, Any]:
    """``GET /route/v1/{profile}/{coords}?overview=full&geometries=geojson`` of OSRM."""
    coords = [[lon, lat] for lat, lon in points]
    return {
        "code": "Ok",
        "routes": [
            {
                "geometry": {"coordinates": coords, "type": "LineString"},
                "legs": [
                    {
                        "steps": [],
                        "summary": "",
                        "weight": duration,
                        "duration": duration,
                        "distance": distance,
                    }
                ],
                "weight_name": "routability",
                "weight": duration,
                "duration": duration,
                "distance": distance,
            }
        ],
        "waypoints": [
            {"hint": "x", "distance": 3.1, "name": "", "location": coords[0]},
            {"hint": "y", "distance": 2.7, "name": "", "location": coords[-1]},
        ],
    }


def osrm_table(durations: list[float], distances: list[float]) -> dict[str, Any]:
    """``GET /table/v1/{profile}/{coords}?sources=0&annotations=duration,distance`` of OSRM."""
    return {
        "code": "Ok",
        "durations": [[0.0, *durations]],
        "distances": [[0.0, *distances]],
        "sources": [{"hint": "s", "distance": 1.0, "name": "", "location": [127.1, 37.51]}],
        "destinations": [],
    }


def rate_limited() -> Reply:
    return Reply(
        status=429,
        body={"errorType": "RateLimitExceeded", "message": "too many requests"},
        headers={"retry-after": "1"},
    )


def not_json() -> Reply:
    return Reply(body="<html>502 Bad Gateway</html>")


def _encode(points: list[tuple[float, float]]) -> str:
    """Google's encoded polyline (the format the Routes API sends)."""
    out: list[str] = []
    prev = (0, 0)
    for lat, lon in points:
        cur = (round(lat * 1e5), round(lon * 1e5))
        for d in (cur[0] - prev[0], cur[1] - prev[1]):
            v = ~(d << 1) if d < 0 else d << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        prev = cur
    return "".join(out)


def google_route(points: list[tuple[float, float]], distance: int, seconds: int) -> dict[str, Any]:
    """``POST /directions/v2:computeRoutes`` of Google Routes with the field mask's fields."""
    return {
        "routes": [
            {
                "distanceMeters": distance,
                "duration": f"{seconds}s",
                "polyline": {"encodedPolyline": _encode(points)},
            }
        ]
    }


def google_matrix(seconds: list[int], metres: list[int]) -> list[dict[str, Any]]:
    """``POST /distanceMatrix/v2:computeRouteMatrix``: one element per destination, any order."""
    rows = [
        {
            "originIndex": 0,
            "destinationIndex": i,
            "status": {},
            "distanceMeters": m,
            "duration": f"{s}s",
            "condition": "ROUTE_EXISTS",
        }
        for i, (s, m) in enumerate(zip(seconds, metres, strict=True))
    ]
    return list(reversed(rows))
