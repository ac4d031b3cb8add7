import net from 'node:net';

/** Asks the kernel for a free TCP port on 127.0.0.1. Another process may take it before the server binds it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('The kernel gave no port'));
      });
    });
  });
}
