# shellcheck shell=bash
# lab-apt.sh - a private apt for the lab (sourced): package lists, state and
# cache of its own under $LAB_DATA/apt/SUITE, for amd64 and armhf, so that
# packages of another suite or architecture can be downloaded (apt-get
# download) without touching the host's sources, its dpkg architectures
# or its package state.  Nothing is installed: the lab unpacks what it
# downloads with dpkg-deb -x.  Needs die() and LAB_DATA.
#
# The mirror is the host's own Debian mirror (the first URI of its apt
# sources that serves the suite `bookworm`, `trixie`...: not the security
# archive), or LAB_MIRROR; the archive keyring is Debian's.

LAB_KEYRING=${LAB_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}

# The host's Debian mirror, from its sources (deb822 .sources files and
# one-line sources.list entries).  Sets LAB_MIRROR unless it is set.
lab_mirror() {
	[ -z "${LAB_MIRROR:-}" ] || return 0
	local f
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		LAB_MIRROR=$(awk '
			/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }
			/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) { print $i; exit } break } }
		' "$f")
		[ -z "$LAB_MIRROR" ] || return 0
	done
	die "no Debian mirror in the host's apt sources (set LAB_MIRROR=URI)"
}

# apt-get/apt-cache options for SUITE's private configuration.
lab_apt_opts() {
	local d=$LAB_DATA/apt/$1
	LAB_APT_OPTS=(-o "Dir::Etc::SourceList=$d/sources.list" -o "Dir::Etc::SourceParts=$d/sources.list.d"
		-o "Dir::Etc::Preferences=$d/preferences" -o "Dir::Etc::PreferencesParts=$d/preferences.d"
		-o "Dir::State=$d/state" -o "Dir::State::status=$d/state/status" -o "Dir::Cache=$d/cache"
		-o "APT::Architecture=amd64" -o "APT::Architectures::=amd64" -o "APT::Architectures::=armhf"
		-o "Debug::NoLocking=1" -o "APT::Sandbox::User=root" -q)
}

# lab_apt_update SUITE [force]: the suite's package lists, fetched once (or
# again with force: a package the old lists name may be gone).
lab_apt_update() {
	local suite=$1 force=${2:-} d=$LAB_DATA/apt/$1
	lab_apt_opts "$suite"
	if [ -z "$force" ] && [ -e "$d/state/updated" ]; then
		return 0
	fi
	lab_mirror
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" "$d/preferences.d" ||
		die "cannot create $d"
	: > "$d/state/status"
	: > "$d/preferences"
	echo "deb [arch=amd64,armhf signed-by=$LAB_KEYRING] $LAB_MIRROR $suite main" > "$d/sources.list"
	rm -f "$d/state/updated"
	apt-get "${LAB_APT_OPTS[@]}" update > "$d/update.log" 2>&1 ||
		die "cannot fetch the package lists of Debian $suite from $LAB_MIRROR: $(grep -E '^(E|W):' "$d/update.log" | head -3 | tr '\n' ' ')"
	grep -q '^E:' "$d/update.log" &&
		die "cannot fetch the package lists of Debian $suite: $(grep '^E:' "$d/update.log" | head -3 | tr '\n' ' ')"
	touch "$d/state/updated"
}

# lab_apt_download SUITE DIR PKG...: download the packages (PKG or
# PKG:ARCH) into DIR; the lists are fetched again once if one is missing
# (a newer upload replaced it).
lab_apt_download() {
	local suite=$1 dir=$2
	shift 2
	lab_apt_update "$suite"
	if ! (cd "$dir" && apt-get "${LAB_APT_OPTS[@]}" download "$@") > "$dir/.download.log" 2>&1; then
		lab_apt_update "$suite" force
		(cd "$dir" && apt-get "${LAB_APT_OPTS[@]}" download "$@") > "$dir/.download.log" 2>&1 ||
			die "cannot fetch $* from Debian $suite: $(grep -E '^(E|W):' "$dir/.download.log" | head -3 | tr '\n' ' ')"
	fi
	rm -f "$dir/.download.log"
}

# lab_apt_depends SUITE PKG: the packages PKG depends on, one a line.
lab_apt_depends() {
	lab_apt_update "$1"
	apt-cache "${LAB_APT_OPTS[@]}" depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "$2" 2> /dev/null |
		sed -n 's/^ *|\{0,1\}Depends: \([^ <>]*\).*/\1/p'
}

# lab_apt_exists SUITE PKG: PKG is in SUITE's lists.
lab_apt_exists() {
	lab_apt_update "$1"
	apt-cache "${LAB_APT_OPTS[@]}" show "$2" > /dev/null 2>&1
}
