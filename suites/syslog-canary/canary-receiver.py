# The canary of suites/syslog-canary.suite.ts: binds a Unix datagram socket (Node cannot) and counts the datagrams
# it receives; on SIGTERM it reads what is still queued, prints `CANARY <count>` and exits.
#
# The handler only raises a flag: a handler that printed the count itself could run between a recv() that returned a
# datagram and the count's increment, and lose that datagram (it lost logger's control datagram on a loaded machine).
import select
import signal
import socket
import sys

sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
sock.setblocking(False)
count = 0
stopping = False


def stop(*_):
    global stopping
    stopping = True


def read_queued():
    global count
    while True:
        try:
            sock.recv(1 << 20)
        except BlockingIOError:
            return
        count += 1


signal.signal(signal.SIGTERM, stop)
print("LISTENING", flush=True)
while not stopping:
    ready, _, _ = select.select([sock], [], [], 0.1)
    if ready:
        read_queued()
read_queued()
print(f"CANARY {count}", flush=True)
