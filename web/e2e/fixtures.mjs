/* global console, process */
// The Playwright side of the e2e scenarios: per worker (one per pass, `workers: 1`), Kickstand
// started with the pass's environment (playwright.config.mjs) and the state the scenario objects
// share ({ baseUrl, sandboxUrl, artifacts, browser, dataDir, consoleErrors, … }); `defineScenarios`
// turns a list of scenario objects ({ name, needs?, run(state) }) into tests, in order.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { artifacts, startProduct, startTimeoutMs } from './product.mjs';

const slug = (name) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

export const test = base.extend({
  /** The pass this project runs: its name, log file and environment (set per project in the config). */
  pass: [
    { name: 'documented Kick', logFile: 'server.log', env: {} },
    { scope: 'worker', option: true },
  ],

  product: [
    async ({ pass }, use) => {
      const product = await startProduct(pass);
      try {
        await use(product);
      } finally {
        await product.stop();
      }
    },
    { scope: 'worker', timeout: startTimeoutMs + 30_000 },
  ],

  state: [
    async ({ pass, product, browser }, use) => {
      const state = {
        baseUrl: product.baseUrl,
        sandboxUrl: product.sandboxUrl,
        artifacts: path.join(artifacts, slug(pass.name)),
        browser,
        dataDir: product.dataDir,
        consoleErrors: [],
        /** the names of the scenarios that passed in this worker, for `needs` */
        passed: new Set(),
      };
      mkdirSync(state.artifacts, { recursive: true });
      await use(state);
      if (state.consoleErrors.length > 0) {
        console.log(`e2e: console errors in the app (${state.consoleErrors.length}):`);
        for (const line of state.consoleErrors) console.log(`  ${line}`);
      }
      // the pass's pages go with its product
      for (const context of browser.contexts()) await context.close().catch(() => undefined);
    },
    { scope: 'worker' },
  ],
});

/**
 * Declares `scenarios` as tests run one after another (serial: they share the pages, users and
 * tokens earlier ones left in `state`; after a failure the rest of the group is skipped). A scenario
 * whose `needs` did not pass before it in this worker fails saying so. `E2E_ONLY=<text>` keeps only
 * the scenarios whose name contains it.
 */
export function defineScenarios(group, scenarios) {
  const only = process.env.E2E_ONLY;
  test.describe.serial(group, () => {
    for (const scenario of scenarios) {
      if (only && !scenario.name.includes(only)) continue;
      test(scenario.name, async ({ state }, testInfo) => {
        const missing = (scenario.needs ?? []).filter((needed) => !state.passed.has(needed));
        if (missing.length > 0) throw new Error(`needs ${missing.join(', ')}, which did not pass before it`);
        try {
          await scenario.run(state);
          state.passed.add(scenario.name);
        } catch (error) {
          const page = state.lastPage;
          if (page && !page.isClosed()) {
            const file = path.join(state.artifacts, `failed-${slug(scenario.name)}.png`);
            await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
            await testInfo.attach('last page', { path: file, contentType: 'image/png' }).catch(() => undefined);
          }
          throw error;
        }
      });
    }
  });
}
