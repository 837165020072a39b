#!/usr/bin/env python3
"""Write one patch of series/ from edits made in the kernel work tree.

usage: mkpatch.py PATCH MESSAGE_FILE FILE...

PATCH is a name listed in series/series.  The patch's base is the pristine
tree plus every patch listed before it; its content is the work tree's
version of each FILE (paths relative to the tree; a file missing from the
work tree is a deletion).  MESSAGE_FILE holds the mail header and commit
message ("From:", "Subject:", blank line, body, Signed-off-by).  The patches
after PATCH are not touched: regenerate them too if they touch the same
files.
"""
import os, subprocess, sys, tempfile, shutil

def main():
    name, msg, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sdir = os.path.join(root, "series")
    bdir = os.path.join(root, "build")
    ptree = os.path.join(bdir, "pristine", "linux-source-6.1")
    wtree = os.path.join(bdir, "linux-source-6.1")
    order = [l.split("#")[0].split()[0] for l in open(os.path.join(sdir, "series"))
             if l.split("#")[0].strip()]
    if name not in order:
        sys.exit(f"mkpatch: {name} is not in series/series")
    before = order[:order.index(name)]
    out = []
    with tempfile.TemporaryDirectory() as stage:
        for f in files:
            if os.path.exists(os.path.join(ptree, f)):
                os.makedirs(os.path.dirname(os.path.join(stage, f)), exist_ok=True)
                shutil.copy2(os.path.join(ptree, f), os.path.join(stage, f))
        for p in before:
            # Earlier patches may touch other files too: apply only to ours.
            r = subprocess.run(["filterdiff"] + sum((["-i", "*/" + f] for f in files), []) +
                               [os.path.join(sdir, p)], capture_output=True, text=True)
            if r.returncode:
                sys.exit(f"mkpatch: filterdiff failed: {r.stderr}")
            if r.stdout.strip():
                subprocess.run(["patch", "-p1", "-s", "-d", stage, "--no-backup-if-mismatch"],
                               input=r.stdout, text=True, check=True)
        for f in files:
            a = os.path.join(stage, f)
            b = os.path.join(wtree, f)
            r = subprocess.run(["diff", "-Nu", "-p", "--label", "a/" + f, "--label", "b/" + f,
                                a if os.path.exists(a) else "/dev/null",
                                b if os.path.exists(b) else "/dev/null"],
                               capture_output=True, text=True)
            if r.returncode > 1:
                sys.exit(f"mkpatch: diff failed on {f}: {r.stderr}")
            if not r.stdout:
                print(f"mkpatch: {f}: no change", file=sys.stderr)
            out.append(r.stdout)
    body = "".join(out)
    stat = subprocess.run(["git", "apply", "--stat", "-"], input=body, capture_output=True,
                          text=True, cwd="/").stdout
    header = open(msg).read().rstrip("\n")
    with open(os.path.join(sdir, name), "w") as fh:
        fh.write(header + "\n---\n" + stat + "\n" + body + "-- \n2.39.5\n\n")
    print(f"mkpatch: wrote series/{name}")

main()
