export {
  createPrivateFile,
  ensurePrivateDir,
  privateDirMode,
  privateFileMode,
  restrictMode,
  writePrivateFile,
} from './private-files';
