#!/bin/sh
# No module cycle in src/, checked by `make check`, at two levels:
#
#  - the link level, the one that counts: the objects' symbols (nm over
#    build/obj, which `make check` builds first).  A module is the .c files
#    of one folder that extend one header's name: job.c, job_commit.c and
#    job_password.c are the module pipeline/job of job.h; a .c file whose
#    name extends no header of its folder (a keyword's handler) is a module
#    of its own.  A depends on B when an object of A leaves undefined a
#    symbol an object of B defines.
#  - the include level: A depends on B when A's .c or .h includes B's
#    header (foo_int.h, the private header of foo's parts, is foo's).
#
# Each set of modules that depend on each other (a strongly connected
# component, Tarjan's algorithm) is printed, with the symbols or includes
# that tie it, and fails the check.  Prints one "ok"/"not ok" line per level.
cd "$(dirname "$0")/../.." || exit 2

obj=${CYCLES_OBJ:-build/obj}

# Reads "from to why" lines; prints each strongly connected component of
# more than one module, its modules sorted and space separated, one a line.
components() {
	awk '
	NF >= 2 && $1 != $2 {
		if (!($1 in seen)) { seen[$1] = 1; node[n++] = $1 }
		if (!($2 in seen)) { seen[$2] = 1; node[n++] = $2 }
		if (!(($1, $2) in edge)) { edge[$1, $2] = 1; adj[$1, ++deg[$1]] = $2 }
	}
	function connect(v,   i, w, comp, k, sorted, j, t) {
		index_of[v] = low[v] = ++counter
		stack[++sp] = v
		on[v] = 1
		for (i = 1; i <= deg[v]; i++) {
			w = adj[v, i]
			if (!(w in index_of)) {
				connect(w)
				if (low[w] < low[v]) low[v] = low[w]
			} else if (on[w] && index_of[w] < low[v])
				low[v] = index_of[w]
		}
		if (low[v] == index_of[v]) {
			k = 0
			do {
				w = stack[sp--]
				on[w] = 0
				comp[++k] = w
			} while (w != v)
			if (k > 1) {
				for (i = 2; i <= k; i++)	# insertion sort: a few names
					for (j = i; j > 1 && comp[j - 1] > comp[j]; j--) {
						t = comp[j]; comp[j] = comp[j - 1]; comp[j - 1] = t
					}
				sorted = comp[1]
				for (i = 2; i <= k; i++) sorted = sorted " " comp[i]
				print sorted
			}
		}
	}
	END { for (i = 0; i < n; i++) if (!(node[i] in index_of)) connect(node[i]) }' | sort
}

# Prints the cycles of the "from to why" edges of file $2 (level $1) and
# the edges inside each; returns 1 if there is one.
report() { # level edges-file nmodules
	cycles=$(components <"$2")
	if [ -z "$cycles" ]; then
		echo "ok - no module cycle in src/ at the $1 level ($3 modules)"
		return 0
	fi
	echo "$cycles" | while read -r c; do
		echo "# cycle of $(echo "$c" | wc -w) modules at the $1 level: {$c}"
		echo "$c" | tr ' ' '\n' >"$tmp/comp"
		awk 'NR == FNR { in_c[$1] = 1; next }
			($1 in in_c) && ($2 in in_c) { print "#   " $1 " -> " $2 ": " $3 }' "$tmp/comp" "$2"
	done
	echo "not ok - no module cycle in src/ at the $1 level ($3 modules)"
	return 1
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

srcs=$(find src -name '*.c' | sort)
[ -n "$srcs" ] || { echo "not ok - no sources under src/"; exit 1; }

# Each .c file with its module: folder/the longest header name of its
# folder it extends (the name itself, or the name and "_..."), else its own.
find src -name '*.h' | sort >"$tmp/headers"
echo "$srcs" | awk '
	NR == FNR {
		d = $0; sub(/\/[^\/]*$/, "", d)
		n = $0; sub(/^.*\//, "", n); sub(/\.h$/, "", n); sub(/_int$/, "", n)
		hs[d] = hs[d] " " n
		next
	}
	{
		d = $0; sub(/\/[^\/]*$/, "", d)
		b = $0; sub(/^.*\//, "", b); sub(/\.c$/, "", b)
		best = ""
		k = split(hs[d], h, " ")
		for (i = 1; i <= k; i++)
			if ((b == h[i] || index(b, h[i] "_") == 1) && length(h[i]) > length(best))
				best = h[i]
		if (best == "") best = b
		m = d; sub(/^src\/?/, "", m)
		print $0, (m == "" ? "" : m "/") best
	}' "$tmp/headers" - >"$tmp/modmap"

bad=0

# --- the link level
missing=
objs=
for f in $srcs; do
	o=$obj/${f#src/}
	o=${o%.c}.o
	if [ ! -f "$o" ] || [ "$o" -ot "$f" ]; then
		missing="$missing $o"
	else
		objs="$objs $o"
	fi
done
if [ -n "$missing" ]; then
	echo "# objects missing or older than their source (make builds them):$missing" | cut -c1-300
	echo "not ok - no module cycle in src/ at the link level (build first)"
	bad=1
else
	# nm -A: "object: [address] type symbol"
	# shellcheck disable=SC2086
	nm -A -g $objs | awk -v obj="$obj/" '
		NR == FNR { o = $1; sub(/^src\//, obj, o); sub(/\.c$/, ".o", o); mod[o] = $2; next }
		{
			o = $1; sub(/:.*/, "", o); m = mod[o]
			if ($NF == "" || NF < 2) next
			if ($(NF - 1) == "U") uses[++nu] = $NF " " m
			else if ($(NF - 1) ~ /^[A-TV-Z]$/) def[$NF] = m
		}
		END {
			for (i = 1; i <= nu; i++) {
				split(uses[i], u, " ")
				if ((u[1] in def) && def[u[1]] != u[2]) print u[2], def[u[1]], u[1]
			}
		}' "$tmp/modmap" - |
		sort -k1,1 -k2,2 -k3,3 | awk '{ k = $1 " " $2 } k != last { if (last != "") print line; line = $0; last = k; next }
			{ line = line "," $3 } END { if (last != "") print line }' >"$tmp/links"
	report link "$tmp/links" "$(cut -d' ' -f2 "$tmp/modmap" | sort -u | wc -l)" || bad=1
fi

# --- the include level
files=$(find src -name '*.[ch]' | sort)
find src -name '*.h' | sed 's/^src\///' | sort >"$tmp/hnames"
# shellcheck disable=SC2086
awk '
	NR == FNR { isheader[$0] = 1; next }
	FNR == 1 { m = FILENAME; sub(/^src\//, "", m); sub(/\.[ch]$/, "", m); sub(/_int$/, "", m)
		b = FILENAME; sub(/^.*\//, "", b) }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
		if (!(h in isheader)) next
		sub(/\.h$/, "", h); sub(/_int$/, "", h)
		if (h != m) print m, h, b
	}' "$tmp/hnames" $files | sort -u >"$tmp/includes"
report include "$tmp/includes" "$(echo "$files" | sed 's/\.[ch]$//; s/_int$//' | sort -u | wc -l)" || bad=1

exit $bad
