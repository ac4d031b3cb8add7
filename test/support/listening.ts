import { readdir, readFile, readlink } from 'node:fs/promises';

/** `0100007F:0CEA` (little-endian IPv4) or a 32-digit IPv6 address from /proc/net/tcp*, as `127.0.0.1:3306`. */
export function procAddress(hex: string): string {
  const [host = '', port = '0'] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (host.length === 8) {
    const bytes = (host.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)).reverse();
    return `${bytes.join('.')}:${portNumber}`;
  }
  const words = (host.match(/.{8}/g) ?? []).map((w) =>
    (w.match(/../g) ?? [])
      .reverse()
      .join('')
      .replace(/(.{4})(.{4})/, '$1:$2'),
  );
  return `[${words.join(':')}]:${portNumber}`;
}

/** The inodes of listening TCP sockets (state 0A) with their addresses, from /proc/net/tcp and tcp6. */
async function listeningSockets(): Promise<Map<string, string>> {
  const sockets = new Map<string, string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && fields[1] && fields[9]) sockets.set(fields[9], procAddress(fields[1]));
    }
  }
  return sockets;
}

/** Where every mariadbd or mysqld process but `exceptPid` listens now (addresses, one per socket). */
export async function listeningAddresses(options: { exceptPid: number }): Promise<string[]> {
  const sockets = await listeningSockets();
  const found: string[] = [];
  for (const pid of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(pid) || Number(pid) === options.exceptPid) continue;
    const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
    if (comm !== 'mariadbd' && comm !== 'mysqld') continue;
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const address = inode && sockets.get(inode);
      if (address) found.push(address);
    }
  }
  return found;
}
