import net from 'node:net';

export interface TcpProxy {
  /** The local port to connect to instead of the target's. */
  port: number;
  /** Cuts the link for real: live connections are reset and new ones refused until restore(). */
  cut(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A tiny TCP proxy on 127.0.0.1, so a test can take a real service (RabbitMQ) away from the
 * code under test and give it back, without stopping the service other tests use.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect({ host: targetHost, port: targetPort });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    // Either side going away takes the other with it, as a real broken link would.
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('tcp proxy has no port');

  const destroyAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };

  return {
    port: address.port,
    cut() {
      cut = true;
      destroyAll();
    },
    async restore() {
      cut = false;
    },
    async close() {
      cut = true;
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
