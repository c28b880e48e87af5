#!/usr/bin/env python3
"""Slow clients against `glimpse serve` (used by scripts/load-test.sh, phase h).

Opens STALLED connections that send the head of a 1,000,000-byte upload and 10 bytes of
it, then nothing, and DRIPPING ones that send one byte a second; waits until the server
answers and closes each. Prints one line:
  RESULT clients=N answered_408=N closed=N max_seconds=S
and exits 1 unless every client got 408 and was closed within LIMIT seconds.

Also writes thin PNGs for the same phase: `hostile_clients.py --thin-pngs FOLDER` writes
wide.png (49,000,000x1 grey) and tall.png (1x49,000,000 grey), a few dozen KB each.
"""
import socket
import struct
import sys
import threading
import time
import zlib


def thin_pngs(folder):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    for name, (w, h) in {"wide.png": (49_000_000, 1), "tall.png": (1, 49_000_000)}.items():
        compressor = zlib.compressobj(9)
        data = compressor.compress(b"\x00" * ((w + 1) * h)) + compressor.flush()  # grey rows of zero
        ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
        with open(f"{folder}/{name}", "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def client(port, dripping, limit, results, index):
    start = time.time()
    head = b"POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n"
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(0.5)
    s.sendall(head if dripping else head + b"0123456789")
    data = b""
    last_drip = time.time()
    closed = False
    while time.time() - start < limit:
        if dripping and time.time() - last_drip >= 1:
            try:
                s.sendall(b"x")
            except OSError:
                pass
            last_drip = time.time()
        try:
            got = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            closed = True
            break
        if not got:
            closed = True
            break
        data += got
    s.close()
    status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "none"
    results[index] = (status, closed, time.time() - start)


def main():
    if sys.argv[1] == "--thin-pngs":
        thin_pngs(sys.argv[2])
        return 0
    port, stalled, dripping, limit = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    count = stalled + dripping
    results = [None] * count
    threads = [threading.Thread(target=client, args=(port, i >= stalled, limit, results, i)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    answered = sum(1 for r in results if r[0] == "408")
    closed = sum(1 for r in results if r[1])
    slowest = max(r[2] for r in results)
    print(f"RESULT clients={count} answered_408={answered} closed={closed} max_seconds={slowest:.1f}")
    return 0 if answered == count and closed == count else 1


if __name__ == "__main__":
    sys.exit(main())
