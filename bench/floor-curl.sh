#!/usr/bin/env bash
# The floor: the least a client can do to list every project. One curl per page, keyset by id,
# 100 per page, following the Link rel="next" the server sends. Prints each page's JSON array on a line.
# usage: floor-curl.sh URL TOKEN
set -euo pipefail
next="$1/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=100"
headers=$(mktemp)
trap 'rm -f "$headers"' EXIT
while [ -n "$next" ]; do
  curl -sS --fail -H "PRIVATE-TOKEN: $2" -D "$headers" "$next"
  echo
  next=$(sed -n 's/^[Ll]ink:.*<\([^>]*\)>; *rel="next".*/\1/p' "$headers" | tr -d '\r')
done
