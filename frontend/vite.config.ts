import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  base: '/spotv2/',
  plugins: [react()],
  server: {
    proxy: { '/backend': 'http://127.0.0.1:8000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true, // read by scripts/check-bundle.mjs
  },
  test: {
    environment: 'jsdom',
    // Under the base path, so that the session cookie (path /spotv2) is visible as in the browser.
    environmentOptions: { jsdom: { url: 'http://localhost:3000/spotv2/' } },
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Longer than any wait of a test (src/test/setup.ts): a slow machine makes a test slow, not failed.
    testTimeout: 300_000,
    unstubGlobals: true,
    // Vitest keeps one core free by default, which on CI's two cores means one worker: both cut the
    // suite from 259 s to 169 s.
    maxWorkers: 2,
  },
})
