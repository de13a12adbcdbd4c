import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

/** Serves the built web app, and index.html for any other browser navigation (client-side routes). */
export function spaRoutes(webDistDir: string): Router {
  const router = Router();
  const root = path.resolve(webDistDir);
  const indexFile = path.join(root, 'index.html');
  router.use(express.static(root, { index: false, maxAge: '1h' }));
  router.get(/.*/, (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api' || req.path.startsWith('/socket.io')) return next();
    if (!req.accepts('html')) return next();
    if (!existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`, then reload.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(indexFile);
  });
  return router;
}
