#!/usr/bin/env bash
# Replay throughput of `houserules analyze` (1 and 2 jobs) against python-chess on the same
# files. Two corpora of 10,000 games, made reproducibly:
#   random: `houserules play --white random --black random --seed 1 --games 10000`
#           (legal FIDE games to their end by the rules: mates, stalemates, 75-move and
#           fivefold draws, insufficient material; ~350 plies each)
#   real:   the real-world files of tests/data/records (python-chess's data, annotated.pgn)
#           concatenated 500 times (20 games a round: 10,000 games, ~90 plies each,
#           with comments, variations, NAGs, clocks, Chess960 FENs, a null move)
# Usage: tools/pgn-check/bench.sh [GAMES]     (build first: cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/../.."
H=${HOUSERULES:-target/release/houserules}
N=${1:-10000}
DIR=target/pgn-bench
mkdir -p "$DIR"
RANDOM_PGN=$DIR/random-$N.pgn
REAL_PGN=$DIR/real-$N.pgn
[ -s "$RANDOM_PGN" ] || "$H" play --white random --black random --seed 1 --games "$N" --out "$RANDOM_PGN"
if [ ! -s "$REAL_PGN" ]; then
    : > "$REAL_PGN"
    for _ in $(seq 1 $(( N / 20 ))); do
        for g in tests/data/records/python-chess/*.pgn tests/data/records/annotated.pgn; do
            sed '1s/^\xEF\xBB\xBF//' "$g" >> "$REAL_PGN"   # byte order marks only at the start
            printf '\n' >> "$REAL_PGN"
        done
    done
fi
for f in "$RANDOM_PGN" "$REAL_PGN"; do
    echo "== $f ($(du -h "$f" | cut -f1))"
    for jobs in 1 2; do
        "$H" analyze -q --jobs "$jobs" "$f" 2>&1 >/dev/null | tail -1
    done
    "$H" analyze --jsonl --jobs 2 "$f" 2>&1 >/dev/null | tail -1 | sed 's/^/with per-ply JSON: /'
    python3 tools/pgn-check/bench_python.py "$f"
done
