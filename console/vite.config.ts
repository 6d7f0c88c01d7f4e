import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the service at /console (src/console/routes.ts). No inline
// scripts or styles end up in index.html, so the CSP can stay strict.
export default defineConfig({
  base: '/console/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        // React and the TanStack libraries change less often than the app:
        // a separate chunk stays cached across console releases.
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|scheduler|@tanstack)\//.test(id)) return 'vendor';
          return undefined;
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
