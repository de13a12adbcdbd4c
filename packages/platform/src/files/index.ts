export {
  createPrivateFile,
  ensurePrivateDir,
  privateDirMode,
  privateFileMode,
  restrictMode,
  writePrivateFile,
} from './private-files';
export { syncDir } from './sync-dir';
