// Before the e2e passes: the web app is built (the gateway serves web/dist), as CI runs no other build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { artifacts, repoRoot } from './product.mjs';

export default function globalSetup() {
  // the products' logs are appended to during the run (product.mjs): each run starts them afresh
  if (existsSync(artifacts)) {
    for (const file of readdirSync(artifacts)) if (file.endsWith('.log')) rmSync(path.join(artifacts, file));
  }
  const build = spawnSync('npm', ['run', 'build', '-w', '@kickstand/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');
}
