#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""http_attack.py - hostile HTTP clients for tests/bats/metrics_attack.bats,
on 127.0.0.1 only, each run bounded in time and in connections.

  http_attack.py slowloris PORT N GAP SECS   N clients, each sending its request
                                             one header byte every GAP seconds,
                                             reconnecting when the server closes it
  http_attack.py idle PORT N SECS            N clients that connect and send
                                             nothing, reconnecting at once when closed
  http_attack.py pipeline PORT N             N requests in one write on one
                                             connection: the status of each answer
  http_attack.py trickle PORT GAP SECS       one client sending a header byte every
                                             GAP seconds: the seconds until the
                                             server closes it ("open" after SECS)
  http_attack.py wrongpw PORT N SECS USER      N clients sending GET /metrics with
                                             USER and a wrong password back to
                                             back, each on a kept connection (a new
                                             one when closed): the count of each
                                             status, "401 A 429 B other C"

The attackers print "ready" and how many are connected once all N are (or
3 s on), then, when SECS are up, "connects C closed-by-server S" and exit."""
import base64
import http.client
import selectors
import socket
import sys
import threading
import time

HOST = "127.0.0.1"
REQUEST = b"GET /metrics HTTP/1.1\r\nHost: attack\r\nX-Slow: " + b"a" * 4000 + b"\r\n\r\n"
MAX_CONNECTS = 200000      # a bound on the reconnects, whatever the server does
MAX_REQUESTS = 100000      # a bound on a wrongpw client's requests


def connect(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect((HOST, port))
    except BlockingIOError:
        pass
    return s


def attack(port, n, gap, secs):
    sel = selectors.DefaultSelector()
    conns = {}                      # socket -> [bytes sent, next send time]
    connects = closed = 0
    for _ in range(n):
        s = connect(port)
        connects += 1
        conns[s] = [0, time.monotonic()]
    # ready once every one is connected (or 3 s on): a server that holds
    # them all is the one under attack
    pending = set(conns)
    wsel = selectors.DefaultSelector()
    for s in pending:
        wsel.register(s, selectors.EVENT_WRITE)
    ready_by = time.monotonic() + 3
    while pending and time.monotonic() < ready_by:
        for key, _ in wsel.select(timeout=0.05):
            wsel.unregister(key.fileobj)
            pending.discard(key.fileobj)
    wsel.close()
    for s in conns:
        sel.register(s, selectors.EVENT_READ)
    print("ready", len(conns) - len(pending), flush=True)
    end = time.monotonic() + secs
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.05):
            s = key.fileobj
            try:
                data = s.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if data:
                continue            # an answer (408, 400): read on until closed
            sel.unregister(s)
            s.close()
            del conns[s]
            closed += 1
            if connects < MAX_CONNECTS:
                s = connect(port)
                connects += 1
                conns[s] = [0, time.monotonic()]
                sel.register(s, selectors.EVENT_READ)
        if gap is None:
            continue
        now = time.monotonic()
        for s, st in conns.items():
            if now >= st[1] and st[0] < len(REQUEST) - 1:
                try:
                    st[0] += s.send(REQUEST[st[0]:st[0] + 1])
                except OSError:
                    pass
                st[1] = now + gap
    for s in conns:
        s.close()
    print("connects", connects, "closed-by-server", closed, flush=True)


def pipeline(port, n):
    req = b"GET /metrics HTTP/1.1\r\nHost: pipeline\r\n\r\n" * n
    s = socket.create_connection((HOST, port), timeout=10)
    s.sendall(req)
    data = b""
    statuses = []
    end = time.monotonic() + 10
    while len(statuses) < n and time.monotonic() < end:
        # each answer: the status line, headers, a Content-Length body
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            head = data[:head_end].decode("latin-1").split("\r\n")
            length = 0
            for h in head[1:]:
                name, _, value = h.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if len(data) >= head_end + 4 + length:
                statuses.append(head[0].split(" ")[1])
                data = data[head_end + 4 + length:]
                continue
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    print(" ".join(statuses))


def trickle(port, gap, secs):
    s = socket.create_connection((HOST, port), timeout=gap)
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < secs and sent < len(REQUEST) - 1:
        try:
            s.send(REQUEST[sent:sent + 1])
            sent += 1
            if s.recv(65536) == b"":
                break
        except socket.timeout:
            continue                # the gap passed with no answer: the next byte
        except OSError:
            break
    else:
        print("open")
        return
    print("%.2f" % (time.monotonic() - start))


def wrongpw(port, n, secs, user):
    counts = {}
    lock = threading.Lock()
    end = time.monotonic() + secs

    def client(i):
        auth = base64.b64encode(("%s:wrong %d" % (user, i)).encode()).decode()
        conn = None
        for _ in range(MAX_REQUESTS):
            if time.monotonic() >= end:
                break
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, port, timeout=10)
                conn.request("GET", "/metrics", headers={"Authorization": "Basic " + auth})
                resp = conn.getresponse()
                resp.read()
                status = str(resp.status)
                if resp.will_close:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                status = "other"
                if conn is not None:
                    conn.close()
                conn = None
            with lock:
                counts[status] = counts.get(status, 0) + 1
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    print("ready", n, flush=True)
    for t in threads:
        t.join()
    other = sum(c for s, c in counts.items() if s not in ("401", "429"))
    print("401", counts.get("401", 0), "429", counts.get("429", 0), "other", other, flush=True)


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "slowloris":
        attack(port, int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]))
    elif mode == "idle":
        attack(port, int(sys.argv[3]), None, float(sys.argv[4]))
    elif mode == "trickle":
        trickle(port, float(sys.argv[3]), float(sys.argv[4]))
    elif mode == "pipeline":
        pipeline(port, int(sys.argv[3]))
    elif mode == "wrongpw":
        wrongpw(port, int(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
    else:
        sys.exit("usage: http_attack.py slowloris|idle|pipeline|trickle|wrongpw PORT ...")


if __name__ == "__main__":
    main()
