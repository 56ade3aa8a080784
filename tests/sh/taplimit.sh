#!/bin/sh
# taplimit: a whole 9x9 robot game by taps within an hour of registering is
# never refused by max_mails_per_hour, and a runaway client replaying one
# tap is stopped by max_board_replies_per_hour (tests/browser/taplimit.py).
. "$(dirname "$0")/lib.sh"
need "$PY"
tmpdir
HOME=$tmp
export HOME
"$PY" tests/browser/taplimit.py "$bin" "$top/templates"
