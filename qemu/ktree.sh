#!/bin/bash
# The kernel work tree as a git repository: the pristine tarball as the
# first commit (tag "pristine"), then one commit per patch of series/.
#
# usage: ktree.sh tree   TARBALL BUILD_DIR SERIES_DIR   [FORCE=1 in the environment]
#        ktree.sh series TARBALL BUILD_DIR SERIES_DIR
#        ktree.sh state  TARBALL BUILD_DIR SERIES_DIR
#        ktree.sh roundtrip TARBALL BUILD_DIR SERIES_DIR
#
# tree    Create BUILD_DIR/<top> (the tarball's top directory) when it is
#         missing, then make it hold pristine + series/ when series/ changed
#         since the tree last matched it.  The patches are applied with
#         `git am` in a sparse worktree of their own files, and the work tree
#         then moves to the result with `git checkout`, which rewrites only
#         files whose content differs: kbuild stays incremental.  A tree
#         with commits or edits that are not in series/ is never discarded
#         (FORCE=1 does).
# series  Write series/ from the tree's commits (`git format-patch`,
#         reproducible: zero commit ids, no signature, full index lines, no
#         numbering), so that an unchanged commit gives a byte-identical patch.
# roundtrip  Check that series/ applied to pristine with `git am` and
#         written back with `git format-patch` is byte-identical to series/
#         (the work tree is not touched).
# state   Update BUILD_DIR/.tree-state, a stamp whose content changes
#         exactly when the tree's content does (HEAD, edits, new files):
#         the kernel build depends on it.
set -euo pipefail

cmd=$1 tarball=$2 bdir=$3 sdir=$4
mkdir -p "$bdir"
bdir=$(realpath "$bdir") sdir=$(realpath "$sdir")
top=linux-source-6.1
tree=$bdir/$top
statef=$bdir/.series-state

# Our own git calls ignore the user's configuration (format-patch output,
# hooks, signing) and commit as a fixed identity at fixed dates, so a tree
# made on any machine has the same commit ids.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_COMMITTER_NAME="SCI developers" GIT_COMMITTER_EMAIL="sci@localhost"
g() { git -C "$tree" "$@"; }
die() { echo "ktree: $*" >&2; exit 1; }

patches() {
	[ -f "$sdir/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$sdir/series" | grep -v '^$' | while read -r p _; do
		[ -f "$sdir/$p" ] || die "series/series names $p, which is not in $sdir"
		echo "$sdir/$p"
	done
}

digest() {
	{ [ -f "$sdir/series" ] && cat "$sdir/series"; for p in $(patches); do cat "$p"; done; } | sha256sum | cut -d' ' -f1
}

create() {
	echo "ktree: creating $tree from $tarball" >&2
	rm -rf "$tree" "$bdir/pristine" "$bdir/.tree-tmp" "$statef"
	mkdir "$bdir/.tree-tmp"
	tar -C "$bdir/.tree-tmp" -xf "$tarball"
	[ -d "$bdir/.tree-tmp/$top" ] || die "$tarball has no $top/ directory"
	mv "$bdir/.tree-tmp/$top" "$tree"
	rmdir "$bdir/.tree-tmp"
	g init -q -b sci
	# -f: Debian's top-level .gitignore ignores everything ("/*").
	g add -A -f
	local v
	v=$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' "$tree/Makefile" | paste -sd.)
	GIT_AUTHOR_NAME="linux-source" GIT_AUTHOR_EMAIL="linux-source@debian" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		g commit -q -m "linux-source $v: $(basename "$tarball"), as extracted"
	g tag -f pristine >/dev/null
}

# Apply series/ to pristine without touching the work tree; print the head.
apply_series() {
	local wt=$bdir/.am-worktree files
	g worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	g worktree prune
	g worktree add -q --no-checkout --detach "$wt" pristine
	files=$(for p in $(patches); do sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|/\1\n/\2|p' "$p"; done | sort -u)
	if [ -n "$files" ]; then
		git -C "$wt" sparse-checkout set --no-cone $files
	else
		git -C "$wt" sparse-checkout set --no-cone /MAINTAINERS
	fi
	git -C "$wt" read-tree -mu HEAD
	for p in $(patches); do
		if ! git -C "$wt" am -q --committer-date-is-author-date "$p" >&2; then
			git -C "$wt" am --abort 2>/dev/null || true
			g worktree remove --force "$wt"
			die "$(basename "$p") does not apply (git am)"
		fi
	done
	git -C "$wt" rev-parse HEAD
	g worktree remove --force "$wt"
}

do_tree() {
	if [ ! -d "$tree/.git" ] || ! g rev-parse -q --verify pristine >/dev/null; then
		create
	fi
	local want have_digest= have_head= head new
	want=$(digest)
	if [ -f "$statef" ]; then
		{ read -r have_digest; read -r have_head; } <"$statef" || true
	fi
	if [ "$want" = "$have_digest" ]; then
		return 0		# the tree is the developer's: build what it holds
	fi
	head=$(g rev-parse HEAD)
	if [ -n "$have_head" ] && [ "${FORCE:-0}" != 1 ]; then
		if [ "$head" != "$have_head" ] || [ -n "$(g status --porcelain --untracked-files=no)" ]; then
			die "$tree has commits or edits that are not in series/, and series/ changed too.
  'make series' writes the tree's commits to series/; 'make tree FORCE=1' discards them."
		fi
	fi
	new=$(apply_series)
	g checkout -q -f -B sci "$new"
	printf '%s\n%s\n' "$want" "$new" >"$statef"
	echo "ktree: $(g rev-list --count pristine..HEAD) patches applied, $tree at $(g rev-parse --short HEAD)" >&2
}

# The reproducible form of series/: git format-patch of pristine..$1 into $2.
fmt() {
	g format-patch -q --zero-commit --no-signature --full-index --no-numbered \
		--no-renames -o "$2" "pristine..$1" >/dev/null
	(cd "$2" && ls -- *.patch 2>/dev/null) >"$2/series" || true
}

# series/ applied with git am and written back with git format-patch is
# byte-identical to series/.  The work tree is not touched.
do_roundtrip() {
	if [ ! -d "$tree/.git" ] || ! g rev-parse -q --verify pristine >/dev/null; then
		create
	fi
	local new tmp rc=0
	new=$(apply_series)
	tmp=$(mktemp -d)
	fmt "$new" "$tmp"
	for f in "$tmp"/*; do
		cmp -s "$f" "$sdir/$(basename "$f")" || { echo "ktree: round trip: $(basename "$f") differs" >&2; rc=1; }
	done
	for p in $(patches); do
		[ -e "$tmp/$(basename "$p")" ] || { echo "ktree: round trip: $(basename "$p") is not what format-patch names it" >&2; rc=1; }
	done
	rm -rf "$tmp"
	[ $rc = 0 ] && echo "ktree: round trip: $(g rev-list --count "pristine..$new") patches byte-identical" >&2
	return $rc
}

do_series() {
	[ -d "$tree/.git" ] || die "no kernel tree: run 'make tree' first"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "the tree has uncommitted edits: commit them (git commit --fixup=...) first"
	local other
	other=$(g ls-files --others | head -5)
	[ -z "$other" ] || echo "ktree: warning: files in the tree that no commit has (Debian's .gitignore hides new files: 'git add -f' them):
$other" >&2
	local tmp
	tmp=$(mktemp -d)
	fmt HEAD "$tmp"
	mkdir -p "$sdir"
	for p in "$sdir"/*.patch; do
		[ -e "$p" ] || continue
		[ -e "$tmp/$(basename "$p")" ] || rm -f "$p"
	done
	local n=0 changed=0 f
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		if ! cmp -s "$f" "$sdir/$(basename "$f")"; then
			cp "$f" "$sdir/"
			changed=$((changed + 1))
		fi
	done
	cmp -s "$tmp/series" "$sdir/series" || cp "$tmp/series" "$sdir/series"
	rm -rf "$tmp"
	printf '%s\n%s\n' "$(digest)" "$(g rev-parse HEAD)" >"$statef"
	echo "ktree: series/ has $n patches, $changed rewritten" >&2
}

do_state() {
	local s
	s=$( { g rev-parse HEAD; g diff HEAD --binary | sha256sum;
		(cd "$tree" && git ls-files --others -z | xargs -0r sha256sum --); } | sha256sum | cut -d' ' -f1)
	[ "$(cat "$bdir/.tree-state" 2>/dev/null)" = "$s" ] || echo "$s" >"$bdir/.tree-state"
}

case $cmd in
tree) do_tree; do_state ;;
series) do_series ;;
roundtrip) do_roundtrip ;;
state) do_state ;;
*) die "unknown command $cmd" ;;
esac
