"""One httpx request under a :class:`~matjip.providers.base.RetryPolicy` (the OpenAI-compatible
client and Tavily web search share it; kept out of :mod:`.base` so that importing the
interfaces does not import httpx)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from matjip.providers.base import RETRY_STATUS, RetryPolicy, parse_retry_after


def send_with_retries(send: Callable[[], httpx.Response], retry: RetryPolicy) -> tuple[httpx.Response, int]:
    """Call ``send`` until it answers with a status that is not retried, or no retries are left.

    Returns that response (success or error: the caller reads and closes it) and the number of
    attempts. 429/5xx answers (``RETRY_STATUS``) are retried after the policy's delay, honouring
    ``Retry-After``; connection errors are retried too, and the last one propagates. Timeouts
    are not retried: ``httpx.TimeoutException`` propagates at once.
    """
    attempt = 0
    while True:
        try:
            resp = send()
        except httpx.TimeoutException:
            raise
        except httpx.TransportError:
            delay = retry.delay(attempt)
            if delay is None:
                raise
            retry.sleep(delay)
            attempt += 1
            continue
        if resp.status_code in RETRY_STATUS:
            delay = retry.delay(attempt, parse_retry_after(resp.headers.get("retry-after")))
            if delay is not None:
                resp.close()
                retry.sleep(delay)
                attempt += 1
                continue
        return resp, attempt + 1
