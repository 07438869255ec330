// A TCP proxy in front of a server, for connection-loss tests: it forwards bytes both ways and,
// when told, cuts a connection the moment the client sends its next message (the query is sent,
// its answer never comes), as a server restart or a network drop does.

import * as net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cut the next `count` client messages' connections (Infinity: every one). */
  dropNext(count: number): void;
  stop(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let toDrop = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    let started = false;
    client.on('data', (chunk) => {
      // The startup exchange always passes; only queries on an open session are cut.
      if (started && toDrop > 0) {
        toDrop--;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (chunk.includes(Buffer.from('Z\0\0\0\x05'))) started = true;
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    dropNext: (count) => {
      toDrop = count;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
