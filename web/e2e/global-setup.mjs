// Before the e2e passes: the web app is built (the gateway serves web/dist), as CI runs no other build.
import { spawnSync } from 'node:child_process';
import { repoRoot } from './product.mjs';

export default function globalSetup() {
  const build = spawnSync('npm', ['run', 'build', '-w', '@kickstand/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');
}
