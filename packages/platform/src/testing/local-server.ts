import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  port: number;
  /** Drops open connections and stops listening. */
  close(): Promise<void>;
}

/** Listens on a free loopback port: for stand-ins of outside servers (OpenDota, a webhook forwarder). */
export async function listenLocally(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
