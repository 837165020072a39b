#!/usr/bin/env python3
"""Make the kernel work tree equal a pristine tree plus series/.

usage: mktree.py TARBALL BUILD_DIR SERIES_DIR

BUILD_DIR/pristine/<top>  the tarball, extracted once, never modified
BUILD_DIR/<top>           the work tree: pristine + every patch in
                          SERIES_DIR/series, in order

Only the files that the previous and the new series touch are examined, and
only those whose content changes are rewritten, so kbuild rebuilds only what
the series change affects.  Prints the work tree's path on stdout.
"""
import hashlib, os, re, shutil, subprocess, sys, tempfile

def series_patches(sdir):
    path = os.path.join(sdir, "series")
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            name = line.split()[0]
            if not os.path.exists(os.path.join(sdir, name)):
                sys.exit(f"mktree: series names {name}, which is not in {sdir}")
            out.append(os.path.join(sdir, name))
    return out

def touched(patch):
    files = set()
    for line in open(patch, errors="replace"):
        m = re.match(r"^(?:\+\+\+|---) (\S+)", line)
        if m and m.group(1) != "/dev/null":
            p = m.group(1)
            files.add(p.split("/", 1)[1] if "/" in p else p)
    return files

def digest(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(os.path.basename(p).encode() + b"\0" + open(p, "rb").read())
    return h.hexdigest()

def main():
    tarball, bdir, sdir = sys.argv[1:4]
    os.makedirs(bdir, exist_ok=True)
    pdir = os.path.join(bdir, "pristine")
    if not os.path.isdir(pdir) or not os.path.exists(os.path.join(pdir, ".complete")):
        shutil.rmtree(pdir, ignore_errors=True)
        os.makedirs(pdir)
        print("mktree: extracting", tarball, file=sys.stderr)
        subprocess.check_call(["tar", "-C", pdir, "-xf", tarball])
        open(os.path.join(pdir, ".complete"), "w").close()
    tops = [d for d in os.listdir(pdir) if not d.startswith(".")]
    if len(tops) != 1:
        sys.exit(f"mktree: expected one directory in {pdir}, found {tops}")
    top = tops[0]
    ptree, wtree = os.path.join(pdir, top), os.path.join(bdir, top)
    state = os.path.join(bdir, ".series-state")

    patches = series_patches(sdir)
    want = digest(patches)
    old_digest, old_files = None, set()
    if os.path.isdir(wtree) and os.path.exists(state):
        lines = open(state).read().split("\n")
        old_digest, old_files = lines[0], set(l for l in lines[1:] if l)
    if old_digest == want:
        print(wtree)
        return
    if not os.path.isdir(wtree):
        print("mktree: copying the pristine tree", file=sys.stderr)
        subprocess.check_call(["cp", "-a", ptree, wtree])
        old_files = set()
    elif old_digest is None:
        # A work tree of unknown state: start again from pristine.
        print("mktree: work tree state unknown, re-creating it", file=sys.stderr)
        shutil.rmtree(wtree)
        subprocess.check_call(["cp", "-a", ptree, wtree])
        old_files = set()

    new_files = set()
    for p in patches:
        new_files |= touched(p)
    files = old_files | new_files
    with tempfile.TemporaryDirectory(dir=bdir) as stage:
        for f in new_files:
            src = os.path.join(ptree, f)
            if os.path.exists(src):
                os.makedirs(os.path.dirname(os.path.join(stage, f)), exist_ok=True)
                shutil.copy2(src, os.path.join(stage, f))
        for p in patches:
            r = subprocess.run(["patch", "-p1", "-s", "-N", "--no-backup-if-mismatch", "--fuzz=0", "-d", stage, "-i", os.path.abspath(p)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode:
                sys.exit(f"mktree: {os.path.basename(p)} does not apply:\n{r.stdout}")
        changed = 0
        for f in sorted(files):
            staged = os.path.join(stage, f)
            if f not in new_files:          # only the old series touched it
                staged = os.path.join(ptree, f)
            dst = os.path.join(wtree, f)
            if os.path.exists(staged):
                if os.path.exists(dst) and open(staged, "rb").read() == open(dst, "rb").read():
                    continue
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(staged, dst)     # new mtime: kbuild sees the change
                shutil.copymode(staged, dst)
                changed += 1
            elif os.path.exists(dst):
                os.unlink(dst)
                changed += 1
    with open(state, "w") as fh:
        fh.write(want + "\n" + "\n".join(sorted(new_files)) + "\n")
    print(f"mktree: {len(patches)} patches, {changed} files changed", file=sys.stderr)
    print(wtree)

main()
