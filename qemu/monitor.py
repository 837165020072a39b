#!/usr/bin/env python3
"""Send commands to a QEMU human monitor on a unix socket, print the replies.

usage: monitor.py SOCKET COMMAND [COMMAND...]

run-guest.sh uses it on a guest that is about to time out: the registers
of every vCPU (RIP, CR3, RFLAGS.IF) say where a frozen guest spins.
"""
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
    for cmd in sys.argv[2:]:
        s.sendall(cmd.encode() + b"\n")
        drain()
    s.close()
    sys.stdout.write(out.decode(errors="replace").replace("\r", ""))


if __name__ == "__main__":
    main()
