import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The SPA build. `npm run dev -w web` serves it with hot reload and forwards /api to the
 * gateway on :3000, so the browser sees one origin (cookies and the CSRF rule work as in
 * production). `npm run build -w web` writes web/dist, which the gateway serves.
 */
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: process.env.GATEWAY_URL ?? 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/report-size.mjs reads the manifest to measure what the landing route loads.
    manifest: true,
    sourcemap: false,
    // Chromium, Firefox and Safari preload modules natively; the polyfill only costs the landing route.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every route runs (React and the router) in one chunk: one request and one
        // compression window instead of several small ones on the landing route. The query cache
        // is not in it: only the screens that load data use it (src/routes.tsx), lazily.
        codeSplitting: {
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ }],
        },
      },
    },
  },
});
