#!/usr/bin/env sh
# Browser tests drive Debian's chromium; install it when it is missing and we are allowed to.
# fonts-nanum makes Korean readable in the screenshots the browser tests save.
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi nanum; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null) \
    || echo "warning: could not install chromium; browser tests will be skipped" >&2
else
  echo "warning: /usr/bin/chromium not found; browser tests will be skipped" >&2
fi
exit 0
