#!/bin/sh
# fuzz: the short smoke of every libFuzzer harness (tests/fuzz/run-fuzz
# smoke): the saved crashing inputs of tests/fuzz/regress/, the seeds, then
# 2000 mutations each, under ASan+UBSan.  The harnesses run in three shards
# side by side (tests/run-tests), each harness in one.
# shards: 3
. "$(dirname "$0")/lib.sh"
exec sh tests/fuzz/run-fuzz smoke "$shard_k/$shard_n"
