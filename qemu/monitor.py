#!/usr/bin/env python3
"""Send commands to a QEMU human monitor on a unix socket, print the replies.

usage: monitor.py SOCKET COMMAND [COMMAND...]

run-guest.sh uses it on a guest that is about to time out: the registers
of every vCPU (RIP, CR3, RFLAGS.IF) say where a frozen guest spins.
"""
import re
import socket
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(sys.argv[1])
    out = b""

    def drain(idle=0.5):
        nonlocal out
        end = time.time() + 10
        s.settimeout(idle)
        while time.time() < end:
            try:
                data = s.recv(65536)
            except socket.timeout:
                return
            if not data:
                return
            out += data

    drain()
    out = b""
    for cmd in sys.argv[2:]:
        s.sendall(cmd.encode() + b"\n")
        drain()
        # The monitor echoes the command with terminal redraws: one line.
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "",
                      out.decode(errors="replace").replace("\r", ""))
        lines = [l for l in text.split("\n")
                 if not l.startswith("(qemu)") and not l.endswith(cmd)]
        sys.stdout.write("(qemu) %s\n%s\n" % (cmd, "\n".join(lines).strip()))
        out = b""
    s.close()


if __name__ == "__main__":
    main()
