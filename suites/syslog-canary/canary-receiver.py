# The canary of suites/syslog-canary.suite.ts: binds a Unix datagram socket (Node cannot) and counts the datagrams
# it receives; on SIGTERM it reads what is still queued, prints `CANARY <count>` and exits.
import signal
import socket
import sys

sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
count = 0


def finish(*_):
    global count
    sock.setblocking(False)
    while True:
        try:
            sock.recv(1 << 20)
            count += 1
        except BlockingIOError:
            break
    print(f"CANARY {count}", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, finish)
print("LISTENING", flush=True)
while True:
    sock.recv(1 << 20)
    count += 1
