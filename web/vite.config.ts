import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the gateway serves /api and /socket.io; Vite serves everything else.
// In production the gateway serves web/dist itself, so no proxy is involved.
const gatewayUrl = `http://localhost:${process.env.GATEWAY_PORT ?? 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // The HTTP contract from its TypeScript source (its schemas check the forms), as the type checker reads it.
  resolve: {
    alias: {
      '@kickstand/api-contract': fileURLToPath(new URL('../packages/api-contract/src/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': { target: gatewayUrl, changeOrigin: true },
      '/socket.io': { target: gatewayUrl, changeOrigin: true, ws: true },
    },
  },
});
