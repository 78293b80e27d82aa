import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { resolve } from 'node:path';

// main and preload externalize their dependencies (node-pty is native); the preload is built as
// one CommonJS file because a sandboxed preload can neither load ESM nor require node modules.
/**
 * The strict CSP meta tag is for production (file:// pages get no response headers). The dev
 * server's React refresh preamble is an inline script it would block, so `electron-vite dev`
 * serves the page without it; builds keep it.
 */
function devCspRelaxed(): Plugin {
  return {
    name: 'plugboard-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/s, ''),
  };
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), tailwindcss(), devCspRelaxed()],
    build: {
      minify: true,
      rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') },
    },
  },
});
