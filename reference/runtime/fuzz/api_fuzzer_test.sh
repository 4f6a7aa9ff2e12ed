#!/bin/bash
# Replays every regression input of the API fuzzer's corpus, then runs a
# bounded count of seeded generated inputs (api_fuzzer_replay.cc).
#
# Usage: api_fuzzer_test.sh REPLAY_BINARY CORPUS_DIR
set -eu
replay="$1"
corpus="$2"
"$replay" --runs=300 --seed=20 "$corpus"
