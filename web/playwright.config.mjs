/* global process */
// The end-to-end run (`npm run test:e2e`): @playwright/test drives Debian's Chromium (never a
// downloaded browser) against the real product, in two passes, each a project with its own start of
// Kickstand (e2e/fixtures.mjs): the sandbox following Kick's documentation, then behaving like real
// Kick. One worker (the passes run one after the other; the scenarios of a pass share its state).
import { defineConfig } from '@playwright/test';

// Playwright never fetches a browser for this repo (scripts/ensure-chromium.sh installs Debian's).
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.mjs',
  globalSetup: './e2e/global-setup.mjs',
  outputDir: 'e2e-artifacts/results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // a scenario waits up to 20 s per step; the timer and event-message ones wait for posts
  timeout: 300_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    // a failed scenario's last page is saved by e2e/fixtures.mjs
    screenshot: 'off',
    trace: 'off',
    video: 'off',
  },
  projects: [
    {
      name: 'documented Kick',
      testMatch: 'documented-kick.spec.mjs',
      // a timer minute lasts 1 s (sandbox only; refused in production): e2e/timer-scenarios.mjs
      use: { pass: { name: 'documented Kick', logFile: 'server.log', env: { TIMER_MINUTE_MS: '1000' } } },
    },
    {
      name: 'real Kick',
      testMatch: 'real-kick.spec.mjs',
      use: { pass: { name: 'real Kick', logFile: 'server-real-kick.log', env: { KICK_SANDBOX_REAL_KICK: '1' } } },
    },
  ],
});
