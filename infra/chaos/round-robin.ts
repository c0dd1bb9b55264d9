import net from 'node:net';

/**
 * The load balancer in front of a service's replicas in `make chaos --replicas 2`: a TCP
 * proxy on one port that hands each new connection to the next replica in turn, and to the one
 * after when a replica refuses the connection (it was killed and is not back yet) — what
 * nginx's `proxy_next_upstream error` or a Kubernetes Service with a readiness probe give. A
 * connection already open to a replica that dies is cut, as it would be in production: the
 * request on it fails, and the load counts it.
 */
export interface RoundRobin {
  port: number;
  /** Connections handed to another replica because the one whose turn it was refused. */
  readonly failovers: number;
  close(): Promise<void>;
}

export async function startRoundRobin(port: number, targets: number[]): Promise<RoundRobin> {
  let next = 0;
  let failovers = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  /** Connects to the replicas from `first` on; null when none accepts. */
  function connect(first: number, tried: number, onConnected: (upstream: net.Socket | null) => void): void {
    if (tried === targets.length) return onConnected(null);
    const upstream = net.connect({ host: '127.0.0.1', port: targets[(first + tried) % targets.length]! });
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      onConnected(upstream);
    });
    upstream.once('error', () => {
      if (connected) return; // a cut after connecting: the piped client goes with it
      upstream.destroy();
      failovers += 1;
      connect(first, tried + 1, onConnected);
    });
  }

  const server = net.createServer((client) => {
    track(client);
    client.pause();
    const first = next;
    next = (next + 1) % targets.length;
    connect(first, 0, (upstream) => {
      if (!upstream) {
        client.resetAndDestroy();
        return;
      }
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    get failovers() {
      return failovers;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
