# plots.bash - checks shared by the e2e tests of plots and index.html;
# sourced (not run: it is no test).  The sourcing script defines fail().

# check_plot BASE TEXT...: BASE.png is a 1200x700 PNG of more than 15 kB
# (an empty frame is about 4 kB) and BASE.svg an SVG with at least 40
# drawn paths holding every TEXT (the title, each axis label with its
# unit, legend entries), as gnuplot wrote them.
check_plot() {
	local base=$1 png=$1.png svg=$1.svg t
	shift
	[ -s "$png" ] || fail "$png missing"
	[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$png is not a PNG"
	# IHDR: width and height, big-endian, at bytes 16..23
	[ "$(od -An -tu1 -j16 -N8 "$png" | tr -s ' ' | sed 's/^ //')" = "0 0 4 176 0 0 2 188" ] ||
		fail "$png is not 1200x700"
	[ "$(stat -c %s "$png")" -gt 15000 ] || fail "$png is under 15 kB: an empty plot?"
	[ -s "$svg" ] || fail "$svg missing"
	grep -q '<svg' "$svg" || fail "$svg is not an SVG"
	[ "$(grep -c '<path' "$svg")" -ge 40 ] || fail "$svg has under 40 paths: an empty plot?"
	for t in "$@"; do
		grep -qF -- "$t" "$svg" || fail "$svg: no '$t'"
	done
}

# check_html FILE: every tag the page opens is closed in order (void
# elements aside), and every relative href/src names an existing file.
check_html() {
	local html=$1 dir msg missing
	dir=$(dirname "$html")
	msg=$(grep -o '<[^>]*>' "$html" | awk '
		/^<!/ { next }
		{
			name = $0; closing = name ~ /^<\//
			sub(/^<\/?/, "", name); sub(/[ >].*/, "", name)
			if (name ~ /^(meta|img|br|hr|link|input)$/) next
			if (!closing) { st[++sp] = name; next }
			if (sp == 0 || st[sp] != name) {
				printf "</%s> closes <%s> (tag %d)\n", name, sp ? st[sp] : "nothing", NR
				bad = 1; exit 1
			}
			sp--
		}
		END { if (!bad && sp) { printf "<%s> never closed\n", st[sp]; exit 1 } }
	') || fail "$html: unbalanced tags: $msg"
	missing=$(grep -o '\(href\|src\)="[^"]*"' "$html" | sed 's/^[a-z]*="//; s/"$//' | sort -u |
		while read -r target; do
			case $target in
			'#'* | http:* | https:*) continue ;;
			esac
			[ -e "$dir/$target" ] || echo "$target"
		done)
	[ -z "$missing" ] || fail "$html: links to missing files: $missing"
}
