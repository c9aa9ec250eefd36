#!/bin/sh
# The HTTP API with curl: rank raw elements (POST /v1/snapshot, 1 credit) and read a page as Markdown
# (POST /v1/observe), and open an MCP session (POST /mcp). Start the server with `npm start` (it prints a development key), then:
#   SIGHTLINE_KEY=sl_... sh examples/curl.sh
set -eu
BASE=${SIGHTLINE_URL:-http://127.0.0.1:8787}
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

# MCP over HTTP: open a session (its id comes back in the Mcp-Session-Id header; send it on every
# later request, with tools/call messages at 1 credit each). docs/mcp.md has the tools.
curl -sS "$BASE/mcp" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
echo
