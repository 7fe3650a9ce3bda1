import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Served at {basePath}/console/ by @pinfold/server: relative asset URLs work under any mount prefix.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  // `pnpm dev`: the Vite dev server proxies the API to a `pnpm start` server on :3000
  server: {
    proxy: Object.fromEntries(
      ['/v3', '/v1', '/files', '/ipfs', '/data', '/pinning'].map((path) => [path, 'http://127.0.0.1:3000']),
    ),
  },
})
