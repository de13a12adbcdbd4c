import { createServer, type Server } from 'node:http';
import { processMetrics } from '../metrics';
import { closeServer, listen } from '../http/listen';

export interface MetricsServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * `/metrics` (Prometheus) on a port of its own (METRICS_PORT), never on a service's or the
 * gateway's public port: the numbers tell an outsider how busy the product is, which channels
 * exist (by count), and what fails. Bound to 127.0.0.1 unless METRICS_HOST says otherwise (a pod
 * being scraped by Prometheus sets 0.0.0.0; that port is in no Service or ingress).
 */
export async function startMetricsServer(options: { port: number; host: string }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    const { registry } = processMetrics();
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  const port = await listen(server, options.port, options.host);
  return { port, stop: () => closeServer(server) };
}
