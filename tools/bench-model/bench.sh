#!/bin/sh
# Issue #16 benchmark, side by side in one run: perft through the host with plain chess, every
# movement / geometry / royalty / ThressGame preset (the shared generator on the transformed
# model), and Fairy-Stockfish's berolina, coregal and knightmate. User CPU time (less disturbed
# than wall time when other processes share the machine), best of RUNS.
#
#   cargo build --release && sh tools/bench-model/bench.sh [FSF_BINARY] [RUNS]
set -e
H=${H:-./target/release/houserules}
FSF=${1:-/work/wt/fsf/fairy-stockfish}
RUNS=${2:-3}
best() { # prints "best-user-time-in-seconds node-count" over RUNS runs of "$@"
  b=""
  for i in $(seq "$RUNS"); do
    out=$(/usr/bin/time -f "USER %U" "$@" 2>&1)
    t=$(echo "$out" | sed -n 's/^USER //p' | tail -1)
    nodes=$(echo "$out" | sed -n 's/^Nodes searched: *//p' | tail -1)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  echo "$b $nodes"
}
row() { # label depth args...
  label=$1; depth=$2; shift 2
  set -- $(best "$H" perft --depth "$depth" "$@")
  t=$1; NODES=$2
  rate=$(echo "scale=1; $NODES / $t / 1000000" | bc)
  printf '| %s | %s | %s | %.3f s | %s M/s |\n' "$label" "$depth" "$NODES" "$t" "$rate"
}
fsf() { # variant depth
  v=$1; d=$2
  printf 'setoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' "$v" "$d" > /tmp/fsf-bench-$$.in
  set -- $(best sh -c "$FSF < /tmp/fsf-bench-$$.in")
  t=$1; NODES=$2
  rate=$(echo "scale=1; $NODES / $t / 1000000" | bc)
  printf '| Fairy-Stockfish %s | %s | %s | %.3f s | %s M/s |\n' "$v" "$d" "$NODES" "$t" "$rate"
}
echo "| pipeline | depth | nodes | time | rate |"
echo "|---|---|---|---|---|"
row "chess (plain)" 6
D=${DEPTH:-6}
for p in knights-leap-twice bishops-ignore-color pawns-move-backward double-pawn-sprint \
         pawn-diagonal-no-capture rook-warp wrap-board bouncing-pieces bouncing-pieces-2 \
         berolina-pawns berolina-pawns-2 coregal knightmate-rules dual-king weak-dual-king \
         god-kings early-promotion proletariat short-stop trans-rights; do
  row "$p" "$D" --preset "$p"
done
row "knights-leap-twice + wrap-board" 5 --preset knights-leap-twice --preset wrap-board
row "mixedchess_v5" 5 --variant mixedchess_v5
row "tictacrook_v1" 5 --variant tictacrook_v1
row "chess (plain)" 5
for p in berolina-pawns coregal knightmate-rules; do
  row "$p" 5 --preset "$p"
done
if [ -x "$FSF" ]; then
  fsf chess 5
  fsf berolina 5
  fsf coregal 5
  fsf knightmate 5
fi
