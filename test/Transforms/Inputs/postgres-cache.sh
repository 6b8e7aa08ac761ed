#!/usr/bin/env bash
# The pass and marlmap-cache on a PostgreSQL cache: a scratch server
# (utils/postgres-scratch.sh) in a temporary folder, two compiles of the
# same module (the second searches nothing), the cache listed and cleared,
# and a wrong password named without the password. Arguments: the
# checkout, the bin folder, the module.
set -euo pipefail
source=$1 bin=$2 module=$3
dir=$(mktemp -d /tmp/marlmap-postgres-XXXXXX)
chmod 755 "$dir"
trap '"$source/utils/postgres-scratch.sh" stop "$dir/server"; rm -rf "$dir"' EXIT
uri=$("$source/utils/postgres-scratch.sh" start "$dir/server")
password=${uri#postgresql://marlmap:}
password=${password%%@*}

for run in cold warm; do
  echo "== $run"
  "$bin/marlmap-opt" "$module" \
    --marl-map="searcher=genetic budget=200 cache=$uri summary=true" \
    -o "$dir/$run.mlir" 2>&1 | grep "marl-map: "
done
cmp "$dir/cold.mlir" "$dir/warm.mlir" && echo "== same IR"
echo "== list"
"$bin/marlmap-cache" "$uri" list
"$bin/marlmap-cache" "$uri" clear
"$bin/marlmap-cache" "$uri" list
echo "== wrong password"
wrong=${uri/$password/not-the-password}
"$bin/marlmap-opt" "$module" \
  --marl-map="searcher=genetic budget=20 cache=$wrong summary=true" \
  -o /dev/null 2>&1 | sed "s/$password/PASSWORD-LEAKED/g; s/not-the-password/PASSWORD-LEAKED/g"
