# gen CASE: replays CASE's setup as golden.sh does and prints the last Subject to each address
. "$(dirname "$0")/lib.sh"
tmpdir
export OUSTPBM_TEST_SALT=golden
case=$1
home=$tmp/home
mkhome "$home" 'server_name = Oust test server' >/dev/null
printf '%s\n' 0123456789abcdeffedcba98765432100123456789abcdeffedcba9876543210 >"$home/token.secret"
n=0; caseenv=
while IFS= read -r line || [ -n "$line" ]; do
	kind=${line%% *}; rest=${line#* }
	case $kind in
	send) n=$((n + 1)); from=${rest%% *}; subject=${rest#* }
		printf 'From: %s\nTo: oust@example.net\nSubject: %s\nMessage-ID: <setup.%d@example.net>\n\n' "$from" "$subject" "$n" >"$tmp/s.eml"
		env $caseenv OUSTPBM_TEST_TIME=$((T0 + 60 * n)) "$bin" -d "$home" <"$tmp/s.eml" >/dev/null 2>&1 || echo "setup $n failed";;
	env) caseenv="$caseenv $rest";;
	mail) n=$((n + 1)); env $caseenv OUSTPBM_TEST_TIME=$((T0 + 60 * n)) "$bin" -d "$home" <"$case/$rest" >/dev/null 2>&1 || echo "setup $n failed";;
	esac
done <"$case/setup"
for d in "$home"/mail/*/; do
	echo "$(basename $d): $(grep -h '^Subject:' $(ls $d/new/* | sort) | tail -1)"
done
