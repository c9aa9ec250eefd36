#!/bin/sh
# The HTTP API with curl: rank raw elements (POST /v1/snapshot, 1 credit), read a page as Markdown
# (POST /v1/observe, 1 credit), and open an MCP session (POST /mcp), list its tools with the session id
# it answered, and close it.
#
#   sh examples/curl.sh
#
# runs as it is in the clone (after `npm run build`): it starts a server of its own on a free port (a
# temporary data folder, a development key, loopback opened with --egress-allow 127.0.0.1/32) and reads
# that server's own start page. Against a server you run:
#   SIGHTLINE_URL=http://127.0.0.1:8787 SIGHTLINE_KEY=sl_... [SIGHTLINE_PAGE=https://example.com/] sh examples/curl.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)

if [ -z "${SIGHTLINE_URL:-}" ]; then
  DATA=$(mktemp -d)
  node "$ROOT/build/cli.js" serve --port 0 --data-dir "$DATA" --dev-key --egress-allow 127.0.0.1/32 >"$DATA/out.log" 2>"$DATA/err.log" &
  SERVER=$!
  trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
  for _ in $(seq 1 600); do
    grep -q 'listening on' "$DATA/err.log" 2>/dev/null && break
    kill -0 $SERVER 2>/dev/null || { cat "$DATA/err.log" >&2; exit 1; }
    sleep 0.1
  done
  SIGHTLINE_URL=$(sed -n 's/^sightline: listening on \([^ ]*\).*/\1/p' "$DATA/err.log")
  SIGHTLINE_KEY=$(cat "$DATA/dev-key")
  SIGHTLINE_PAGE=${SIGHTLINE_PAGE:-$SIGHTLINE_URL/}
  echo "# started $SIGHTLINE_URL with a development key" >&2
fi
BASE=$SIGHTLINE_URL
KEY=${SIGHTLINE_KEY:?set SIGHTLINE_KEY to an API key}
PAGE=${SIGHTLINE_PAGE:-https://example.com/}

curl -sS "$BASE/v1/snapshot" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{
  "url": "https://shop.example/",
  "viewport": { "width": 1280, "height": 800 },
  "goal": "search for headphones",
  "options": { "limit": 5, "format": "text", "elements": false },
  "raw_elements": [
    { "id": 1, "tag": "input", "text": "", "rect": { "x": 200, "y": 20, "width": 400, "height": 36 }, "attributes": { "type_": "search", "aria_label": "Search" } },
    { "id": 2, "tag": "button", "text": "Search", "rect": { "x": 610, "y": 20, "width": 90, "height": 36 } },
    { "id": 3, "tag": "a", "text": "Deals", "rect": { "x": 20, "y": 20, "width": 60, "height": 20 }, "attributes": { "href": "https://shop.example/deals" } }
  ]
}'
echo

# At most 300 o200k tokens of the page's first blocks; a stored read up to 10 minutes old will do.
curl -sS "$BASE/v1/observe" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d "{ \"url\": \"$PAGE\", \"mode\": \"read\", \"format\": \"markdown\", \"options\": { \"max_tokens\": 300, \"max_age_s\": 600 } }"
echo

# MCP over HTTP: `initialize` opens a session; its id comes back in the Mcp-Session-Id response header,
# and every later request of the session sends it. tools/list is free; tools/call costs 1 credit each
# (docs/mcp.md has the tools). DELETE ends the session and its browser.
HEADERS=$(mktemp)
curl -sS "$BASE/mcp" -D "$HEADERS" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
echo
SESSION=$(tr -d '\r' <"$HEADERS" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: *//p')
rm -f "$HEADERS"
echo "Mcp-Session-Id: $SESSION"
curl -sS "$BASE/mcp" -H "Authorization: Bearer $KEY" -H "Mcp-Session-Id: $SESSION" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
curl -sS "$BASE/mcp" -H "Authorization: Bearer $KEY" -H "Mcp-Session-Id: $SESSION" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
echo
curl -sS -X DELETE "$BASE/mcp" -H "Authorization: Bearer $KEY" -H "Mcp-Session-Id: $SESSION" -o /dev/null -w 'DELETE /mcp: %{http_code}\n'
