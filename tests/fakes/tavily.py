"""Real-shaped Tavily ``/search`` bodies."""

from __future__ import annotations

from typing import Any

from fakes.http import Reply


def search_body(query: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "query": query,
        "follow_up_questions": None,
        "answer": None,
        "images": [],
        "results": [
            {
                "url": r.get("url", f"https://blog.naver.com/example/{i}"),
                "title": r["title"],
                "content": r["content"],
                "score": r.get("score", 0.8 - i * 0.1),
                "raw_content": None,
            }
            for i, r in enumerate(results)
        ],
        "response_time": 1.23,
        "request_id": "123e4567-e89b-12d3-a456-426614174111",
    }


def search_reply(query: str, results: list[dict[str, Any]]) -> Reply:
    return Reply(body=search_body(query, results))


IMUN = {
    "title": "종각역 맛집 야인시대 김두한의 최애 국밥집 이문설렁탕 - Naver Blog",
    "content": "종각역 3-1번 출구로 나와 3분거리. 대도약국 건물과 오른편 농협은행건물 사이! "
    "위 사진 속 골목으로 들어가면 찾을 수 있어요.",
    "url": "https://blog.naver.com/example/223",
}
