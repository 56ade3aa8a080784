#!/bin/sh
# fuzz: the short smoke of every libFuzzer harness (tests/fuzz/run-fuzz
# smoke): the saved crashing inputs of tests/fuzz/regress/, the seeds, then
# 2000 mutations each, under ASan+UBSan.
cd "$(dirname "$0")/../.." || exit 2
exec sh tests/fuzz/run-fuzz smoke
